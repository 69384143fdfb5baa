import { AppError } from '../../contracts/errors.ts';
import type { OrderSelection, Quote, QuoteLine } from '../../contracts/orders.ts';
import { centsOf, dollarsOf, percentOf } from './money.ts';
import type { ServiceLevelTerms } from './service-levels.ts';

// THE quote (DESIGN.md §8): every figure of an order from the service level and the choices, in integer cents.
// The figures are the selection screen's: card cleaning 3.00, subgrades report 2.00, laser height map 1.00,
// custom shipping box 2.50, slab sleeve 0.25, signature 5.00; shipping 4.99 flat; insurance 2% of the total
// declared value, required over $500; signature recommended over $200. Pure: the service levels are passed in.

export const ADD_ON_PRICES_CENTS = {
  cardCleaning: 300,
  subgradesReport: 200,
  heightMap: 100,
  customShippingBox: 250,
  slabCards: 25,
} as const;
export const ADD_ON_LABELS: Record<keyof typeof ADD_ON_PRICES_CENTS, string> = {
  cardCleaning: 'Card Cleaning',
  subgradesReport: 'Subgrades Report',
  heightMap: 'Laser Height Map',
  customShippingBox: 'Custom Shipping Box',
  slabCards: 'Protective Slab Sleeve',
};
export const SIGNATURE_CENTS = 500;
export const SHIPPING_CENTS = 499;
export const INSURANCE_PERCENT = 2;
/** Declared value above which insurance is added whatever was chosen. */
export const INSURANCE_REQUIRED_OVER_CENTS = 50_000;
/** Declared value above which signature on delivery is recommended. */
export const SIGNATURE_RECOMMENDED_OVER_CENTS = 20_000;

const line = (code: string, label: string, amountCents: number): QuoteLine => ({ code, label, amount: dollarsOf(amountCents), amountCents });

export const unknownServiceLevel = () => new AppError('invalid', 'service_level_unknown', 'Service level selection required');

export function quoteOrder(selection: OrderSelection, levels: readonly ServiceLevelTerms[]): Quote {
  const level = levels.find((l) => l.code === selection.serviceLevel);
  if (!level) throw unknownServiceLevel();
  const declaredCents = centsOf(selection.totalDeclaredValue);
  if (declaredCents > level.maxDeclaredValue * 100) {
    throw new AppError(
      'invalid',
      'declared_value_too_high',
      `${level.name} protects cards declared up to $${level.maxDeclaredValue.toLocaleString('en-US')}. Please choose a higher service level.`,
    );
  }

  const serviceLine = line('service', `${level.name} Service`, level.basePriceCents);
  const options = [
    ...(Object.keys(ADD_ON_PRICES_CENTS) as (keyof typeof ADD_ON_PRICES_CENTS)[]).map((key) => line(key, ADD_ON_LABELS[key], ADD_ON_PRICES_CENTS[key])),
    line('signature', 'Signature Required', SIGNATURE_CENTS),
  ];
  const addOnLines = options.filter((o) => o.code !== 'signature' && selection[o.code as keyof typeof ADD_ON_PRICES_CENTS]);
  const signatureLines = selection.requireSignature ? options.filter((o) => o.code === 'signature') : [];
  const shippingLine = line('shipping', 'Shipping', SHIPPING_CENTS);
  const insuranceRequired = declaredCents > INSURANCE_REQUIRED_OVER_CENTS;
  const insuranceApplied = insuranceRequired || selection.shippingInsurance;
  const insuranceCents = insuranceApplied ? percentOf(declaredCents, INSURANCE_PERCENT) : 0;
  const insuranceLines = insuranceApplied ? [line('insurance', `Shipping Insurance (${INSURANCE_PERCENT}%)`, insuranceCents)] : [];

  const lines = [serviceLine, ...addOnLines, ...signatureLines, shippingLine, ...insuranceLines];
  const additionalCents = [...addOnLines, ...signatureLines].reduce((sum, l) => sum + l.amountCents, 0);
  const totalCents = lines.reduce((sum, l) => sum + l.amountCents, 0);
  return {
    serviceLevel: { code: level.code, name: level.name, maxDeclaredValue: level.maxDeclaredValue },
    lines,
    options,
    totalDeclaredValue: dollarsOf(declaredCents),
    serviceFee: dollarsOf(level.basePriceCents),
    shippingFee: dollarsOf(SHIPPING_CENTS),
    insuranceFee: dollarsOf(insuranceCents),
    additionalFees: dollarsOf(additionalCents),
    discounts: dollarsOf(0),
    totalAmount: dollarsOf(totalCents),
    totalCents,
    insuranceApplied,
    insuranceRequired,
    insuranceRecommended: declaredCents > 0,
    signatureRecommended: declaredCents > SIGNATURE_RECOMMENDED_OVER_CENTS,
  };
}
