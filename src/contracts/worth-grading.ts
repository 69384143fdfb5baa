import { z } from 'zod';
import { amount, cents, gradedPricesSchema } from './graded-prices.ts';
import { quoteLineSchema } from './orders.ts';

// GET /api/card/{id}/worth-grading (issue 32 item 4): is the card worth sending in, at each service level? The odds of
// each PSA grade, the card's value at each, the expected value, and what each level costs, all in integer cents with
// exact decimal strings beside them; see src/domain/orders/worth-grading.ts for the math. The per-grade prices'
// contracts are in ./graded-prices.ts, which the portfolio's price history shares.

export { gradedPricesSchema, gradePriceSchema, type GradedPrices, type GradePrice } from './graded-prices.ts';

export const gradeOddsSchema = z.object({
  /** A PSA grade in half steps, 1..10. */
  grade: z.number().min(1).max(10),
  /** The chance of it, in basis points (1/100 of a percent); all of them add up to 10,000. */
  basisPoints: z.number().int().min(0).max(10_000),
  /** The same as a percentage with two decimals: "12.50". */
  percent: z.string(),
});
export type GradeOdds = z.infer<typeof gradeOddsSchema>;

/** One grade's share of the expected value: its odds times its value. */
export const expectedRowSchema = z.object({
  grade: z.number(),
  basisPoints: z.number().int(),
  percent: z.string(),
  /** Which price stands for it: "Grade 9", or "Ungraded" for a grade the source has no figure for. */
  valuedAs: z.string(),
  valueCents: cents,
  value: amount,
  /** odds × value, exact to a hundredth of a cent: "12.3456". */
  contribution: z.string(),
});

export const verdictSchema = z.enum(['worth it', 'borderline', 'not worth it']);
export type Verdict = z.infer<typeof verdictSchema>;

export const levelOutcomeSchema = z.discriminatedUnion('offered', [
  z.object({
    offered: z.literal(true),
    code: z.string(),
    name: z.string(),
    /** The quote's own lines: the service, shipping, and insurance when the declared value requires it. */
    costLines: z.array(quoteLineSchema),
    costCents: cents,
    cost: amount,
    /** Expected graded value less the cost. */
    netCents: cents,
    net: amount,
    /** Net less the raw value: what grading is expected to add over selling the card as it is. */
    gainCents: cents,
    gain: amount,
    verdict: verdictSchema,
    /** The math in one line: "$… expected − $… cost − $… raw = $… gain, …". */
    explanation: z.string(),
  }),
  z.object({ offered: z.literal(false), code: z.string(), name: z.string(), reason: z.string() }),
]);
export type LevelOutcome = z.infer<typeof levelOutcomeSchema>;

export const worthGradingSchema = z.discriminatedUnion('available', [
  z.object({
    available: z.literal(true),
    cardId: z.string(),
    /** False when the PSA estimate says it cannot tell: the odds are then spread evenly over its range. */
    canTell: z.boolean(),
    /** How the odds were made, in words. */
    oddsNote: z.string(),
    odds: z.array(gradeOddsSchema),
    /** Null when no per-grade price source is configured or it has no figures: the odds alone are shown. */
    prices: gradedPricesSchema.nullable(),
    /** Why there are no prices, when there are none. */
    priceNote: z.string().nullable(),
    /** The odds × value table and its sum; null without prices. */
    expected: z.object({ rows: z.array(expectedRowSchema), valueCents: cents, value: amount, rawCents: cents, raw: amount }).nullable(),
    levels: z.array(levelOutcomeSchema),
    /** The thresholds, named and explained. */
    thresholds: z.object({ worthItMarginPercent: z.number().int(), text: z.string() }),
  }),
  z.object({ available: z.literal(false), cardId: z.string(), reason: z.string() }),
]);
export type WorthGrading = z.infer<typeof worthGradingSchema>;
