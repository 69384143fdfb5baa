import type { GradedCard } from '../../contracts/grading.ts';
import { centsToDecimal, formatUsd, MAX_CENTS } from '../../contracts/money.ts';
import { ANALYZED_CATEGORY } from '../../contracts/portfolio.ts';
import type { AnalysisResult } from '../../contracts/portfolio-analysis.ts';
import { knownPrice } from '../cards/index.ts';

// A graded card as the portfolio takes it: POST /api/analyze-card-images answers with it, and a bulk import's graded
// rows join the portfolio through it.

/**
 * SPEC.md §3's analysis result from the engine's grade: who the card is (OCR or the configured vision model), its
 * price only where a named source gave one, and the engine's grade as the estimate. A card photographed in a
 * grader's slab whose label was read is professionally graded: its grader and the label's grade.
 */
export function analysisOf(card: GradedCard, frontImageUrl: string, backImageUrl: string | null): AnalysisResult {
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
    imageUrl: frontImageUrl,
    backImageUrl: backImageUrl,
  };
}
