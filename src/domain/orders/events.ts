import { z } from 'zod';
import { addressFieldsSchema } from '../../contracts/addresses.ts';
import { orderProgressSchema } from '../../contracts/orders.ts';
import { gradingCompanySchema } from '../../contracts/portfolio.ts';
import type { DomainEvent } from '../decider.ts';

// The events of an order, stream `order-<orderId>` (the id comes from the user and the wizard's key, so one
// wizard makes one order), and of the order-number claims, stream `order-number-<n>`. Never a card number or CVV:
// a payment is its processor's authorisation id, the brand and the last four digits.

export const paymentSchema = z.object({
  authorizationId: z.string(),
  processor: z.string(),
  brand: z.string(),
  last4: z.string().regex(/^\d{4}$/),
  amountCents: z.number().int().nonnegative(),
});

export const paymentAuthorizedSchema = z.object({
  orderId: z.string(),
  userId: z.string(),
  cardId: z.string(),
  payment: paymentSchema,
  at: z.string(),
});
export type PaymentAuthorized = DomainEvent<'PaymentAuthorized', z.infer<typeof paymentAuthorizedSchema>>;

export const orderPlacedSchema = z.object({
  orderId: z.string(),
  userId: z.string(),
  /** Six digits, unique (claimed on its own stream first). */
  orderNumber: z.string().regex(/^\d{6}$/),
  serviceLevel: z.object({ code: z.string(), name: z.string() }),
  card: z.object({
    cardGradeId: z.string(),
    cardName: z.string(),
    cardSet: z.string().nullable(),
    cardNumber: z.string().nullable(),
    cardYear: z.string().nullable(),
    imageUrl: z.string().nullable(),
    declaredValueCents: z.number().int(),
  }),
  shippingAddressId: z.string(),
  shippingAddress: addressFieldsSchema,
  options: z.object({
    cardCleaning: z.boolean(),
    subgradesReport: z.boolean(),
    heightMap: z.boolean(),
    requireSignature: z.boolean(),
    customShippingBox: z.boolean(),
    slabCards: z.boolean(),
    shippingInsurance: z.boolean(),
  }),
  /** The quote's figures in cents, as computed by the server when the order was placed. */
  figures: z.object({
    totalDeclaredValue: z.number().int(),
    serviceFee: z.number().int(),
    shippingFee: z.number().int(),
    insuranceFee: z.number().int(),
    additionalFees: z.number().int(),
    discounts: z.number().int(),
    totalAmount: z.number().int(),
  }),
  payment: paymentSchema,
  notes: z.string().nullable(),
  placedAt: z.string(),
});
export type OrderPlaced = DomainEvent<'OrderPlaced', z.infer<typeof orderPlacedSchema>>;

export const orderNumberClaimedSchema = z.object({ orderNumber: z.string(), orderId: z.string(), at: z.string() });
export type OrderNumberClaimed = DomainEvent<'OrderNumberClaimed', z.infer<typeof orderNumberClaimedSchema>>;

/**
 * The grading provider moved the order on (issue 33). Reaching 'graded' carries the grade each card got, which is
 * also reported on the card's own stream (ProfessionalGradeReported, source 'order').
 */
export const orderStatusChangedSchema = z.object({
  orderId: z.string(),
  userId: z.string(),
  status: orderProgressSchema,
  grades: z.array(z.object({ cardId: z.string(), company: gradingCompanySchema, grade: z.number(), cert: z.string() })),
  at: z.string(),
});
export type OrderStatusChanged = DomainEvent<'OrderStatusChanged', z.infer<typeof orderStatusChangedSchema>>;

export type OrderEvent = PaymentAuthorized | OrderPlaced | OrderStatusChanged;

export const orderEventSchemas = {
  PaymentAuthorized: paymentAuthorizedSchema,
  OrderPlaced: orderPlacedSchema,
  OrderStatusChanged: orderStatusChangedSchema,
  OrderNumberClaimed: orderNumberClaimedSchema,
} as const;
