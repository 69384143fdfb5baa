import { z } from 'zod';
import { moneySchema } from './money.ts';
import { gradedPricesSchema } from './graded-prices.ts';
import { cleanText, type TextKind } from './text.ts';

// The portfolio calls of SPEC.md §7 and the Portfolio card of §3, shared by the server and the web app.
// Money goes out as decimal strings ("12.50") and comes in as decimal strings or numbers, parsed to cents
// (./money.ts). Owner fields in a body (userId, id, …) are not part of these schemas, so they are dropped:
// the owner always comes from the session.

/** SPEC.md §5: the grading companies a manual card may name. */
export const GRADING_COMPANIES = ['PSA', 'CGC', 'BGS', 'AGS', 'TAG', 'SGC'] as const;
export const gradingCompanySchema = z.enum(GRADING_COMPANIES, { message: `Choose one of ${GRADING_COMPANIES.join(', ')}` });

export const DEFAULT_CATEGORY = 'Trading Card';
export const ANALYZED_CATEGORY = 'Pokemon Card';
export const NOTES_MAX = 5_000;
export const URL_MAX = 2_048;

/** Optional text: trimmed, empty becomes null, longer than `max` is a 400 saying so. */
function optionalText(kind: TextKind, max: number, label: string) {
  return cleanText(kind, z.string().trim().max(max, `${label} must be at most ${max} characters`))
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v));
}

const optionalUrl = (label: string) =>
  cleanText('url', z.string().trim().max(URL_MAX, `${label} must be at most ${URL_MAX} characters`))
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v))
    .refine((v) => v === null || v === undefined || /^https?:\/\/[^\s]+$/i.test(v) || /^\/api\/images\/[0-9a-f]{64}$/.test(v), {
      message: `${label} must be an http or https address`,
    });

/** A picture this server stored (/api/images/<sha-256>), or nothing. */
const storedPicture = (label: string) =>
  z
    .string()
    .regex(/^\/api\/images\/[0-9a-f]{64}$/, `${label} must be a picture stored by this server`)
    .nullable()
    .optional();

const cardNameSchema = cleanText('name', z.string().trim().min(1, 'Card name is required').max(255, 'Card name must be at most 255 characters'));

/** A grade in steps of `step` between min and max; steps checked in integers, so 9.3 is not 'close enough' to 9.5. */
function gradeSchema(min: number, max: number, step: 0.1 | 0.5) {
  const unit = step === 0.5 ? 2 : 10;
  return z
    .number({ message: 'A grade must be a number' })
    .min(min, `A grade must be at least ${min}`)
    .max(max, `A grade must be at most ${max}`)
    .refine((g) => Math.abs(g * unit - Math.round(g * unit)) < 1e-9, { message: `A grade goes in steps of ${step}` })
    .transform((g) => Math.round(g * unit) / unit);
}

/** The days a card can have been acquired on: no trading card is older, and a date past this is a typo. */
export const EARLIEST_DAY = '1900-01-01';
export const LATEST_DAY = '2099-12-31';

// A day both databases store as given: year 0000 (which PostgreSQL's date has no such year for) or 20000 used to
// reach the database and fail there as a 500; a string compare is enough once the shape is YYYY-MM-DD.
const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'A date is YYYY-MM-DD')
  .refine((d) => d >= EARLIEST_DAY && d <= LATEST_DAY, { message: `A date must be between ${EARLIEST_DAY} and ${LATEST_DAY}` })
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), { message: 'Not a real date' });

const optionalMoney = moneySchema.nullable().optional();

/** The fields every write shares (all optional here; POST and PUT add their own rules). */
const cardFields = {
  cardSet: optionalText('line', 255, 'Set'),
  cardNumber: optionalText('line', 50, 'Card number'),
  cardYear: optionalText('line', 10, 'Year'),
  isGraded: z.boolean().optional(),
  gradingCompany: gradingCompanySchema.nullable().optional(),
  officialGrade: gradeSchema(1, 10, 0.1).nullable().optional(),
  estimatedGrade: gradeSchema(1, 10, 0.1).nullable().optional(),
  currentPrice: optionalMoney,
  priceSource: optionalText('line', 100, 'Price source'),
  imageUrl: optionalUrl('Image URL'),
  backImageUrl: optionalUrl('Back image URL'),
  // The flattened card an analysis made (POST /api/analyze-card-images answers with them): stored pictures only.
  cardImageUrl: storedPicture('Card image URL'),
  cardThumbUrl: storedPicture('Card thumbnail URL'),
  backCardImageUrl: storedPicture('Back card image URL'),
  condition: optionalText('line', 100, 'Condition'),
  rarity: optionalText('line', 100, 'Rarity'),
  category: optionalText('line', 50, 'Category'),
  notes: optionalText('multiline', NOTES_MAX, 'Notes'),
  acquisitionPrice: optionalMoney,
  acquisitionDate: isoDay.nullable().optional(),
};

/** POST /api/portfolio: cardName plus optional card fields. */
export const addPortfolioCardSchema = z.object({ cardName: cardNameSchema, ...cardFields });
export type AddPortfolioCardBody = z.infer<typeof addPortfolioCardSchema>;

/** PATCH /api/portfolio/{id}: the inline edit sends only what changed; its grade goes in steps of 0.5 (SPEC.md §5). */
export const patchPortfolioCardSchema = z.object({
  cardName: cardNameSchema.optional(),
  ...cardFields,
  officialGrade: gradeSchema(1, 10, 0.5).nullable().optional(),
});
export type PatchPortfolioCardBody = z.infer<typeof patchPortfolioCardSchema>;

/** PUT /api/portfolio/{id}: the detail page's edit replaces these fields; one left out is cleared. */
export const putPortfolioCardSchema = z.object({
  cardName: cardNameSchema,
  cardSet: cardFields.cardSet,
  cardNumber: cardFields.cardNumber,
  notes: cardFields.notes,
  currentPrice: cardFields.currentPrice,
  acquisitionPrice: cardFields.acquisitionPrice,
  condition: cardFields.condition,
  rarity: cardFields.rarity,
  cardYear: cardFields.cardYear,
});
export type PutPortfolioCardBody = z.infer<typeof putPortfolioCardSchema>;

const decimal = z.string().regex(/^\d+\.\d{2}$/);

/** One card as GET /api/portfolio lists it (SPEC.md §3 Portfolio card). Prices are decimal strings. */
export const portfolioCardSchema = z.object({
  id: z.number().int(),
  userId: z.string(),
  cardName: z.string(),
  cardSet: z.string().nullable(),
  cardNumber: z.string().nullable(),
  cardYear: z.string().nullable(),
  isGraded: z.boolean(),
  gradingCompany: z.string().nullable(),
  officialGrade: z.number().nullable(),
  estimatedGrade: z.number().nullable(),
  currentPrice: decimal.nullable(),
  priceSource: z.string().nullable(),
  imageUrl: z.string().nullable(),
  backImageUrl: z.string().nullable(),
  /** The flattened card (and its thumbnail) shown in place of the photo; null when there is none (show the photo). */
  cardImageUrl: z.string().nullable(),
  cardThumbUrl: z.string().nullable(),
  backCardImageUrl: z.string().nullable(),
  /** The collection card this entry was added from, while it is still in the collection ("In your collection →"). */
  gradedCardId: z.string().nullable(),
  condition: z.string().nullable(),
  rarity: z.string().nullable(),
  category: z.string(),
  notes: z.string().nullable(),
  acquisitionPrice: decimal.nullable(),
  acquisitionDate: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PortfolioCard = z.infer<typeof portfolioCardSchema>;

/**
 * The values by grade recorded with a price (issue 32 item 5): the per-grade source, its currency, the day it was read
 * and what it priced, and each grade's figure in cents with its exact decimal beside it.
 */
export const gradedValuesViewSchema = gradedPricesSchema.pick({ source: true, currency: true, asOf: true, product: true, grades: true });
export type GradedValuesView = z.infer<typeof gradedValuesViewSchema>;

/** A recorded price of a card (SPEC.md §3 Portfolio price history), with the values by grade recorded beside it. */
export const portfolioPriceSchema = z.object({
  priceDate: z.string(),
  price: decimal,
  source: z.string(),
  createdAt: z.string(),
  /** Null when none were recorded with the price (no per-grade source, or a price the collector typed in). */
  graded: gradedValuesViewSchema.nullable(),
});
export type PortfolioPrice = z.infer<typeof portfolioPriceSchema>;

/** GET /api/portfolio/{id}: the card and every price recorded for it, oldest first. */
export const portfolioCardDetailSchema = portfolioCardSchema.extend({ priceHistory: z.array(portfolioPriceSchema) });
export type PortfolioCardDetail = z.infer<typeof portfolioCardDetailSchema>;

/** GET /api/portfolio/value-history: the portfolio's value and cost basis at the end of each New York day. */
export const portfolioValuePointSchema = z.object({ date: z.string(), value: decimal, cost: decimal });
export type PortfolioValuePoint = z.infer<typeof portfolioValuePointSchema>;
