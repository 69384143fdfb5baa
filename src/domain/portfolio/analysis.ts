import type { GradedCard } from '../../contracts/grading.ts';
import { centsToDecimal, formatUsd, MAX_CENTS } from '../../contracts/money.ts';
import { addPortfolioCardSchema, ANALYZED_CATEGORY, type AddPortfolioCardBody } from '../../contracts/portfolio.ts';
import { cardFromAnalysis, type AnalysisResult } from '../../contracts/portfolio-analysis.ts';
import { knownPrice } from '../cards/index.ts';

// A graded card as the portfolio takes it: POST /api/analyze-card-images answers with it, and a bulk import's graded
// rows join the portfolio through it.

/** Where the photos the pages show are, and the flattened card's pictures (null when none were kept). */
export type AnalysedPictures = Pick<AnalysisResult, 'imageUrl' | 'backImageUrl' | 'cardImageUrl' | 'cardThumbUrl' | 'backCardImageUrl'>;

/**
 * SPEC.md §3's analysis result from the engine's grade: who the card is (OCR or the configured vision model), its
 * price only where a named source gave one, and the engine's grade as the estimate. A card photographed in a
 * grader's slab whose label was read is professionally graded: its grader and the label's grade.
 */
export function analysisOf(card: GradedCard, photos: AnalysedPictures): AnalysisResult {
  const known = knownPrice(card.identification);
  const cents = known ? Math.min(MAX_CENTS, Math.round(known.priceValue * 100)) : null;
  return {
    cardName: card.cardName,
    cardSet: card.cardSet,
    cardNumber: card.cardNumber,
    // The year the card's set came out, when the catalogue matched the card.
    year: card.identification.cardYear ?? null,
    isGraded: card.slabLabel !== undefined,
    gradingCompany: card.slabLabel?.company ?? null,
    grade: card.slabLabel?.grade ?? null,
    estimatedGrade: card.overallGrade,
    condition: card.condition,
    estimatedPrice: cents === null ? 'N/A' : formatUsd(cents),
    price: cents === null ? null : centsToDecimal(cents),
    priceSource: known?.source ?? null,
    notes: card.identification.source === 'none' ? 'The card could not be identified from its photo.' : null,
    category: ANALYZED_CATEGORY,
    ...photos,
  };
}

/**
 * One place for what I own (issue 35): a graded card of the collection joins the portfolio as the engine saw it (who
 * it is, its grade, its price where a named source gave one, its photos and the flattened card); a bulk import's graded
 * rows join it the same way. `notes` go beside what the analysis says.
 */
export function portfolioEntryOfGradedCard(card: GradedCard, pictures: AnalysedPictures, notes: string | null = null): AddPortfolioCardBody {
  const analysis = analysisOf(card, pictures);
  return addPortfolioCardSchema.parse({ ...cardFromAnalysis(analysis), notes: [analysis.notes, notes].filter(Boolean).join('\n') || null });
}
