import { z } from 'zod';
import { cleanText } from './text.ts';

// POST /api/analyze-card-images (SPEC.md §7, §3 Analysis result): photos of a card in, what the portfolio needs to
// add it out. Each side is base64 image data (a data: URL or bare base64) or an http(s) URL the server fetches under
// the same address rules as grading.

/**
 * A side: a data URL, bare base64, or an image URL. Base64 is read whatever its line breaks (most tools wrap it at 76
 * characters, RFC 2045): whitespace is no part of it, so it is taken out before the URL rule, which allows none.
 */
const sideSchema = z.preprocess(
  (value) => (typeof value === 'string' && !/^\s*https?:/i.test(value) ? value.replace(/[\t\n\r ]+/g, '') : value),
  cleanText('url', z.string().trim().min(1, 'An image is required')),
);

export const analyzeCardImagesSchema = z.object({
  frontImage: sideSchema,
  backImage: sideSchema.nullable().optional(),
});
export type AnalyzeCardImagesBody = z.infer<typeof analyzeCardImagesSchema>;

const decimal = z.string().regex(/^\d+\.\d{2}$/);

export const analysisResultSchema = z.object({
  cardName: z.string(),
  cardSet: z.string().nullable(),
  cardNumber: z.string().nullable(),
  year: z.string().nullable(),
  /** A slabbed card, read as professionally graded. */
  isGraded: z.boolean(),
  gradingCompany: z.string().nullable(),
  grade: z.number().nullable(),
  /** The engine's grade of a raw card. */
  estimatedGrade: z.number().nullable(),
  condition: z.string().nullable(),
  /** "$1,234.50", or 'N/A' when no named source gave a price. */
  estimatedPrice: z.string(),
  price: decimal.nullable(),
  priceSource: z.string().nullable(),
  notes: z.string().nullable(),
  category: z.string(),
  imageUrl: z.string(),
  backImageUrl: z.string().nullable(),
  /** The flattened card the engine measured (and its thumbnail), shown in place of the photo. */
  cardImageUrl: z.string().nullable(),
  cardThumbUrl: z.string().nullable(),
  backCardImageUrl: z.string().nullable(),
});
export type AnalysisResult = z.infer<typeof analysisResultSchema>;

/** What the portfolio adds for an analysed card (POST /api/portfolio's body). */
export function cardFromAnalysis(result: AnalysisResult): Record<string, unknown> & { cardName: string } {
  return {
    cardName: result.cardName,
    cardSet: result.cardSet,
    cardNumber: result.cardNumber,
    cardYear: result.year,
    isGraded: result.isGraded,
    gradingCompany: result.isGraded ? result.gradingCompany : null,
    officialGrade: result.isGraded ? result.grade : null,
    estimatedGrade: result.estimatedGrade,
    condition: result.condition,
    category: result.category,
    currentPrice: result.price,
    priceSource: result.price === null ? null : result.priceSource,
    imageUrl: result.imageUrl,
    backImageUrl: result.backImageUrl,
    cardImageUrl: result.cardImageUrl,
    cardThumbUrl: result.cardThumbUrl,
    backCardImageUrl: result.backCardImageUrl,
    notes: result.notes,
  };
}
