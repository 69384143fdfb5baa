import { z } from 'zod';

// What a per-grade price source (PriceCharting) says a card sells for at each grade (issue 32 items 4 and 5), as
// "Is it worth grading?" and the price history give it: integer cents with exact decimal strings beside them. Kept
// apart from the worth-grading answer so the portfolio's price history reads it without the quote's contracts.

/** Integer cents. */
export const cents = z.number().int();
/** Exact dollars as text: "12.50". */
export const amount = z.string().regex(/^-?\d+\.\d{2}$/);

/** One figure from the per-grade price source: what it is, in cents, with its currency and day. */
export const gradePriceSchema = z.object({
  /** The source's own name for it: "Ungraded", "Grade 9", "PSA 10", "BGS 10". */
  label: z.string(),
  /** The PSA grade it prices, null for ungraded and other graders' tens. */
  grade: z.number().nullable(),
  cents,
  amount,
});
export type GradePrice = z.infer<typeof gradePriceSchema>;

export const gradedPricesSchema = z.object({
  /** "PriceCharting". */
  source: z.string(),
  currency: z.literal('USD'),
  /** YYYY-MM-DD: the day the figures were read from the source (it gives current prices, not a dated list). */
  asOf: z.string(),
  /** What the source priced: "Pikachu #58 · Pokemon Base Set". */
  product: z.string(),
  raw: gradePriceSchema.nullable(),
  grades: z.array(gradePriceSchema),
});
export type GradedPrices = z.infer<typeof gradedPricesSchema>;
