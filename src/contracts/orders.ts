import { z } from 'zod';
import { addressFieldsSchema } from './addresses.ts';
import { cleanText } from './text.ts';

// Service levels, the quote, payment and orders (SPEC.md §3 Service level, wizard state, payment form, order
// payload; DESIGN.md §8: one quote computed by the server). Money travels as integer cents and as exact decimal
// strings ("12.34"), never as floating-point dollars.

/** SPEC.md §3 Service level, from the provider; prices in cents and as decimal strings. */
export const serviceLevelSchema = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  base_price: z.string(),
  base_price_cents: z.number().int(),
  turnaround_time_min: z.number().int(),
  turnaround_time_max: z.number().int(),
  /** US dollars, whole. */
  max_declared_value: z.number().int(),
});
export type ServiceLevel = z.infer<typeof serviceLevelSchema>;

const moneyText = z.string().regex(/^\d{1,7}(\.\d{1,2})?$/, 'Declared value must be an amount in dollars, like 120 or 120.50');

/** What the user chose in the wizard: everything a quote is computed from. A total sent by a client is ignored. */
export const orderSelectionSchema = z.object({
  serviceLevel: cleanText('line', z.string({ error: 'Service level selection required' }).min(1, 'Service level selection required').max(50)),
  cardCleaning: z.boolean().default(false),
  subgradesReport: z.boolean().default(true),
  heightMap: z.boolean().default(false),
  customShippingBox: z.boolean().default(false),
  slabCards: z.boolean().default(true),
  requireSignature: z.boolean().default(true),
  shippingInsurance: z.boolean().default(false),
  /** Dollars, as text: exact. */
  totalDeclaredValue: moneyText.default('0'),
});
export type OrderSelectionInput = z.input<typeof orderSelectionSchema>;
export type OrderSelection = z.output<typeof orderSelectionSchema>;

export const quoteLineSchema = z.object({ code: z.string(), label: z.string(), amount: z.string(), amountCents: z.number().int() });
export type QuoteLine = z.infer<typeof quoteLineSchema>;

/** POST /api/orders/quote: every figure of the order, with the lines that sum to the total. */
export const quoteSchema = z.object({
  serviceLevel: z.object({ code: z.string(), name: z.string(), maxDeclaredValue: z.number().int() }),
  lines: z.array(quoteLineSchema),
  /** Every add-on and the signature with its price, chosen or not: what the wizard offers (it keeps no prices). */
  options: z.array(quoteLineSchema),
  totalDeclaredValue: z.string(),
  serviceFee: z.string(),
  shippingFee: z.string(),
  insuranceFee: z.string(),
  additionalFees: z.string(),
  discounts: z.string(),
  totalAmount: z.string(),
  totalCents: z.number().int(),
  insuranceApplied: z.boolean(),
  /** Over $500 declared: insurance is added whatever was chosen. */
  insuranceRequired: z.boolean(),
  insuranceRecommended: z.boolean(),
  /** Over $200 declared. */
  signatureRecommended: z.boolean(),
});
export type Quote = z.infer<typeof quoteSchema>;

// SPEC.md §5 payment form, plus a Luhn check (DESIGN.md §8).
export const paymentCardSchema = z.object({
  cardNumber: cleanText(
    'secret',
    z
      .string({ error: 'Card number must be at least 16 digits' })
      .transform((v) => v.replace(/[\s-]/g, ''))
      .pipe(
        z
          .string()
          .min(16, 'Card number must be at least 16 digits')
          .max(19, 'Card number must be at most 19 digits')
          .regex(/^\d+$/, 'Card number must contain only digits')
          .refine(luhnValid, 'Card number is not valid'),
      ),
  ),
  cardName: cleanText('name', z.string({ error: 'Cardholder name is required' }).trim().min(3, 'Cardholder name is required').max(100, 'Cardholder name must be at most 100 characters')),
  expiryMonth: z.string({ error: 'Month is required' }).regex(/^(0[1-9]|1[0-2])$/, 'Month is required'),
  expiryYear: z.string({ error: 'Year is required' }).regex(/^\d{4}$/, 'Year is required'),
  cvv: cleanText(
    'secret',
    z
      .string({ error: 'CVV must be at least 3 digits' })
      .min(3, 'CVV must be at least 3 digits')
      .max(4, 'CVV must be at most 4 digits')
      .regex(/^\d+$/, 'CVV must contain only digits'),
  ),
  saveCard: z.boolean().default(false),
  billingAddressSame: z.boolean().default(true),
});
export type PaymentCardInput = z.input<typeof paymentCardSchema>;
export type PaymentCard = z.output<typeof paymentCardSchema>;

/** The Luhn checksum every card number carries in its last digit. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The wizard's key: one order per wizard, whatever is clicked twice or retried (an idempotency key). */
const wizardIdSchema = z.string().regex(/^[0-9a-f-]{36}$/i, 'wizardId must be a UUID');
const cardIdSchema = cleanText('line', z.string().min(1).max(64));

/** POST /api/orders/payment: authorises the quote's total on the card. */
export const paymentRequestSchema = z.object({
  wizardId: wizardIdSchema,
  cardId: cardIdSchema,
  selection: orderSelectionSchema,
  payment: paymentCardSchema,
});
export type PaymentRequest = z.input<typeof paymentRequestSchema>;

export const paymentResultSchema = z.object({
  status: z.literal('authorized'),
  brand: z.string(),
  last4: z.string(),
  amount: z.string(),
  amountCents: z.number().int(),
});
export type PaymentResult = z.infer<typeof paymentResultSchema>;

/** POST /api/orders: places the order paid for on the Payment step. */
export const placeOrderSchema = z.object({
  wizardId: wizardIdSchema,
  cardId: cardIdSchema,
  selection: orderSelectionSchema,
  shippingAddressId: cleanText('line', z.string({ error: 'Shipping address required' }).min(1, 'Shipping address required').max(64)),
  notes: cleanText('multiline', z.string().max(1000, 'Notes must be at most 1000 characters')).nullish(),
});
export type PlaceOrderRequest = z.input<typeof placeOrderSchema>;

/** How a placed order moves at the grading provider, in order (issue 33); 'submitted' is before all of them. */
export const ORDER_PROGRESS = ['received', 'grading', 'graded', 'shipped', 'delivered'] as const;
export const orderProgressSchema = z.enum(ORDER_PROGRESS);
export type OrderProgress = z.infer<typeof orderProgressSchema>;

/** One step of an order's timeline: placed ('submitted'), then each status it reached, with when. */
export const orderTimelineEntrySchema = z.object({ status: z.string(), at: z.string() });
export type OrderTimelineEntry = z.infer<typeof orderTimelineEntrySchema>;

/** One order, as the order history and the order page show it. */
export const orderViewSchema = z.object({
  id: z.string(),
  orderNumber: z.string(),
  status: z.string(),
  serviceLevel: z.string(),
  serviceLevelName: z.string(),
  card: z.object({ id: z.string(), cardName: z.string(), cardSet: z.string().nullable(), cardNumber: z.string().nullable(), imageUrl: z.string().nullable() }),
  shippingAddress: addressFieldsSchema,
  cardCleaning: z.boolean(),
  subgradesReport: z.boolean(),
  heightMap: z.boolean(),
  requireSignature: z.boolean(),
  customShippingBox: z.boolean(),
  slabCards: z.boolean(),
  totalDeclaredValue: z.string(),
  serviceFee: z.string(),
  shippingFee: z.string(),
  insuranceFee: z.string(),
  additionalFees: z.string(),
  discounts: z.string(),
  totalAmount: z.string(),
  paidAmount: z.string(),
  paymentBrand: z.string(),
  paymentLast4: z.string(),
  notes: z.string().nullable(),
  createdAt: z.string(),
  /** Placed, then every status reached, oldest first. */
  timeline: z.array(orderTimelineEntrySchema),
});
export type OrderView = z.infer<typeof orderViewSchema>;

/** The card the wizard submits: only one of the caller's own cards. */
export const submissionCardSchema = z.object({
  id: z.string(),
  cardName: z.string(),
  cardSet: z.string().nullable(),
  cardNumber: z.string().nullable(),
  imageUrl: z.string().nullable(),
  /** The flattened card, shown in place of the photo; null on a card graded before it was kept. */
  cardImageUrl: z.string().nullable(),
  overallGrade: z.number(),
  /** The card's known value in dollars, to start the declared value from; null when unknown. */
  estimatedValue: z.string().nullable(),
});
export type SubmissionCard = z.infer<typeof submissionCardSchema>;
