import { describe, expect, it } from 'vitest';
import { orderSelectionSchema, luhnValid, paymentCardSchema, type OrderSelectionInput } from '../../src/contracts/orders.ts';
import { ADD_ON_PRICES_CENTS, centsOf, dollarsOf, percentOf, quoteOrder, SERVICE_LEVELS } from '../../src/domain/orders/index.ts';

// THE quote (DESIGN.md §8): every figure from the service level and the choices, in integer cents.

const select = (input: Partial<OrderSelectionInput>) =>
  orderSelectionSchema.parse({ serviceLevel: 'standard', subgradesReport: false, slabCards: false, requireSignature: false, ...input });
const quote = (input: Partial<OrderSelectionInput>) => quoteOrder(select(input), SERVICE_LEVELS);
const sumOfLines = (q: ReturnType<typeof quote>) => q.lines.reduce((s, l) => s + l.amountCents, 0);

describe('quote', () => {
  it('is the base price plus shipping with nothing else chosen, for every service level', () => {
    const expected: Record<string, number> = { budget: 1000, economy: 1900, standard: 2900, priority: 4500, express: 6500, super: 8500, ultra: 17500 };
    expect(SERVICE_LEVELS.map((l) => l.code)).toEqual(Object.keys(expected));
    for (const level of SERVICE_LEVELS) {
      const q = quote({ serviceLevel: level.code });
      expect(q.totalCents).toBe(expected[level.code]! + 499);
      expect(q.lines.map((l) => l.code)).toEqual(['service', 'shipping']);
      expect(q.totalAmount).toBe(dollarsOf(expected[level.code]! + 499));
    }
  });

  it('prices each add-on as the selection screen does', () => {
    const prices = { cardCleaning: '3.00', subgradesReport: '2.00', heightMap: '1.00', customShippingBox: '2.50', slabCards: '0.25' } as const;
    for (const [key, price] of Object.entries(prices)) {
      const q = quote({ [key]: true });
      const line = q.lines.find((l) => l.code === key);
      expect(line?.amount).toBe(price);
      expect(q.totalCents).toBe(2900 + 499 + centsOf(price));
      expect(q.additionalFees).toBe(price);
    }
    expect(quote({ requireSignature: true }).lines.find((l) => l.code === 'signature')?.amount).toBe('5.00');
  });

  it('with every add-on, for every service level: the lines sum to the total to the cent', () => {
    const all = { cardCleaning: true, subgradesReport: true, heightMap: true, customShippingBox: true, slabCards: true, requireSignature: true, shippingInsurance: true };
    const addOns = Object.values(ADD_ON_PRICES_CENTS).reduce((a, b) => a + b, 0) + 500;
    for (const level of SERVICE_LEVELS) {
      for (const declared of ['0', '0.01', '123.45', '199.99', String(Math.min(level.maxDeclaredValue, 500))]) {
        const q = quote({ ...all, serviceLevel: level.code, totalDeclaredValue: declared });
        expect(sumOfLines(q)).toBe(q.totalCents);
        expect(centsOf(q.serviceFee) + centsOf(q.additionalFees) + centsOf(q.shippingFee) + centsOf(q.insuranceFee)).toBe(q.totalCents);
        expect(q.totalCents).toBe(level.basePriceCents + addOns + 499 + percentOf(centsOf(declared), 2));
      }
    }
  });

  it('requires insurance over $500 declared, and only over', () => {
    expect(quote({ totalDeclaredValue: '500.00' }).insuranceRequired).toBe(false);
    expect(quote({ totalDeclaredValue: '500.00' }).insuranceApplied).toBe(false);
    const over = quote({ totalDeclaredValue: '500.01', shippingInsurance: false });
    expect(over.insuranceRequired).toBe(true);
    expect(over.insuranceApplied).toBe(true);
    // 2% of 500.01 is 10.0002: 10.00 to the cent.
    expect(over.insuranceFee).toBe('10.00');
    expect(over.lines.find((l) => l.code === 'insurance')?.label).toBe('Shipping Insurance (2%)');
  });

  it('adds chosen insurance at 2% of the declared value, rounded half up to the cent', () => {
    expect(quote({ totalDeclaredValue: '100', shippingInsurance: true }).insuranceFee).toBe('2.00');
    expect(quote({ totalDeclaredValue: '0.25', shippingInsurance: true }).insuranceFee).toBe('0.01'); // 0.5 cent rounds up
    expect(quote({ totalDeclaredValue: '0.24', shippingInsurance: true }).insuranceFee).toBe('0.00');
    expect(quote({ totalDeclaredValue: '100', shippingInsurance: false }).insuranceFee).toBe('0.00');
  });

  it('recommends signature over $200 declared, and only over', () => {
    expect(quote({ totalDeclaredValue: '200' }).signatureRecommended).toBe(false);
    expect(quote({ totalDeclaredValue: '200.01' }).signatureRecommended).toBe(true);
  });

  it("refuses a declared value beyond the level's protection, and an unknown level", () => {
    expect(() => quote({ serviceLevel: 'budget', totalDeclaredValue: '500.01' })).toThrow(/Budget protects cards declared up to \$500/);
    expect(quote({ serviceLevel: 'ultra', totalDeclaredValue: '1000000' }).totalDeclaredValue).toBe('1000000.00');
    expect(() => quote({ serviceLevel: 'platinum' })).toThrow('Service level selection required');
  });

  it('takes no total from the client: a total in the body changes nothing', () => {
    const withTotal = orderSelectionSchema.parse({ serviceLevel: 'standard', totalAmount: '0.01', serviceFee: '0' } as object);
    expect(quoteOrder(withTotal, SERVICE_LEVELS).totalCents).toBe(2900 + 200 + 25 + 500 + 499);
  });

  it('refuses declared values that are not exact dollar amounts', () => {
    for (const bad of ['-1', '1e3', '12.345', 'NaN', '$12', '12,000', '']) {
      expect(orderSelectionSchema.safeParse({ serviceLevel: 'standard', totalDeclaredValue: bad }).success, bad).toBe(false);
    }
  });
});

describe('money', () => {
  it('converts between cents and decimal text exactly', () => {
    expect(centsOf('0.1')).toBe(10);
    expect(centsOf('19.99')).toBe(1999);
    expect(dollarsOf(1999)).toBe('19.99');
    expect(dollarsOf(5)).toBe('0.05');
    expect(dollarsOf(centsOf('1234567.89'))).toBe('1234567.89');
  });
});

describe('payment card rules (SPEC.md §5 and Luhn)', () => {
  const good = { cardNumber: '4242424242424242', cardName: 'Ada Lovelace', expiryMonth: '12', expiryYear: '2030', cvv: '123' };
  const message = (input: object) => {
    const result = paymentCardSchema.safeParse({ ...good, ...input });
    return result.success ? null : result.error.issues[0]!.message;
  };

  it('takes a good card, with spaces in the number', () => {
    expect(paymentCardSchema.parse({ ...good, cardNumber: '4242 4242 4242 4242' }).cardNumber).toBe('4242424242424242');
  });

  it("refuses with SPEC.md's messages", () => {
    expect(message({ cardNumber: '424242424242' })).toBe('Card number must be at least 16 digits');
    expect(message({ cardNumber: '42424242424242424242' })).toBe('Card number must be at most 19 digits');
    expect(message({ cardNumber: '4242abcd42424242' })).toBe('Card number must contain only digits');
    expect(message({ cardNumber: '4242424242424241' })).toBe('Card number is not valid');
    expect(message({ cardName: 'Al' })).toBe('Cardholder name is required');
    expect(message({ expiryMonth: '' })).toBe('Month is required');
    expect(message({ expiryMonth: '13' })).toBe('Month is required');
    expect(message({ expiryYear: '' })).toBe('Year is required');
    expect(message({ cvv: '12' })).toBe('CVV must be at least 3 digits');
    expect(message({ cvv: '12345' })).toBe('CVV must be at most 4 digits');
    expect(message({ cvv: '12a' })).toBe('CVV must contain only digits');
  });

  it('checks the Luhn digit', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4000000000000002')).toBe(true);
    expect(luhnValid('4000000000009995')).toBe(true);
    expect(luhnValid('4242424242424243')).toBe(false);
  });
});
