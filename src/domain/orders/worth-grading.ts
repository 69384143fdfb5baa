import { AppError } from '../../contracts/errors.ts';
import type { PsaEstimate } from '../../contracts/grading.ts';
import type { GradedPrices, GradeOdds, LevelOutcome, Verdict, WorthGrading } from '../../contracts/worth-grading.ts';
import { dollarsOf } from './money.ts';
import { quoteOrder } from './quote.ts';
import type { ServiceLevelTerms } from './service-levels.ts';

// "Is it worth grading?" (issue 32 item 4), pure and in integers:
//   1. the odds of each PSA grade from the engine's PSA estimate: its confidence (the chance PSA lands within one grade
//      of it) spread evenly over the half grades within one of the estimate, the rest evenly over the rest of its
//      range; when the estimate cannot tell, evenly over its whole range. Odds are basis points adding up to 10,000
//      (largest remainders; ties to the lower grade, the cautious side);
//   2. each grade's value: the source's figure for that grade, else the nearest priced grade below it, else the
//      ungraded price (a slab below the grades the source prices sells for about a raw copy);
//   3. the expected value: Σ odds × value, exact, rounded half up to the cent once at the end;
//   4. each service level's cost from the quote itself (service + shipping, and insurance when the declared value,
//      the raw price, requires it; no optional add-ons), and the gain over selling the card raw:
//      expected − cost − raw.

/**
 * The estimate is within one grade of PSA's only about a third of the time (psa-calibration.ts), so a gain counts as
 * "worth it" only when it clears the cost with a quarter of it to spare; a gain from 0 up to that is "borderline";
 * an expected loss is "not worth it".
 */
export const WORTH_IT_MARGIN_PERCENT = 25;
export const THRESHOLDS_TEXT =
  `Worth it: the expected gain over selling the card raw is at least ${WORTH_IT_MARGIN_PERCENT}% of the grading cost (a margin for the estimate missing). ` +
  `Borderline: the expected gain is between $0.00 and that margin. Not worth it: grading is expected to lose money.`;

const TOTAL_BASIS_POINTS = 10_000;

/** 1234 basis points → "12.34". */
export const percentText = (basisPoints: number) => `${Math.floor(basisPoints / 100)}.${String(basisPoints % 100).padStart(2, '0')}`;

/** The half grades from low to high. */
function halfSteps(low: number, high: number): number[] {
  const steps: number[] = [];
  for (let twice = Math.round(low * 2); twice <= Math.round(high * 2); twice++) steps.push(twice / 2);
  return steps;
}

/** Shares (integer weights) to basis points adding up to 10,000: largest remainders, ties to the lower grade. */
function toBasisPoints(weights: number[]): number[] {
  const total = weights.reduce((sum, w) => sum + w, 0);
  const exact = weights.map((w) => ({ floor: Math.floor((w * TOTAL_BASIS_POINTS) / total), remainder: (w * TOTAL_BASIS_POINTS) % total }));
  let left = TOTAL_BASIS_POINTS - exact.reduce((sum, e) => sum + e.floor, 0);
  const order = exact.map((e, index) => ({ ...e, index })).sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  const points = exact.map((e) => e.floor);
  for (const { index } of order) {
    if (left === 0) break;
    points[index]! += 1;
    left--;
  }
  return points;
}

export function gradeOdds(estimate: PsaEstimate): { canTell: boolean; note: string; odds: GradeOdds[] } {
  const steps = halfSteps(estimate.low, estimate.high);
  const near = steps.map((grade) => Math.abs(grade - estimate.grade) <= 1);
  const nearCount = near.filter(Boolean).length;
  const farCount = steps.length - nearCount;
  const confidencePercent = Math.round(estimate.confidence * 100);
  let weights: number[];
  let note: string;
  if (!estimate.canTell) {
    weights = steps.map(() => 1);
    note = `The PSA estimate cannot tell the grade${estimate.reason ? ` (${estimate.reason})` : ''}, so the odds are spread evenly over its range, PSA ${estimate.low} to ${estimate.high}.`;
  } else if (farCount === 0) {
    weights = steps.map(() => 1);
    note = `The PSA estimate is ${estimate.grade} (range ${estimate.low} to ${estimate.high}); every grade in the range is within one of it, so the odds are spread evenly over it.`;
  } else {
    // Integer weights: a near grade gets confidence / nearCount, a far one (1 − confidence) / farCount.
    weights = near.map((isNear) => (isNear ? confidencePercent * farCount : (100 - confidencePercent) * nearCount));
    note =
      `The PSA estimate is ${estimate.grade} (range ${estimate.low} to ${estimate.high}) with ${confidencePercent}% confidence of being within one grade: ` +
      `${confidencePercent}% is spread evenly over the grades within one of ${estimate.grade}, the other ${100 - confidencePercent}% over the rest of the range.`;
  }
  if (weights.every((w) => w === 0)) weights = steps.map(() => 1);
  const points = toBasisPoints(weights);
  return { canTell: estimate.canTell, note, odds: steps.map((grade, i) => ({ grade, basisPoints: points[i]!, percent: percentText(points[i]!) })) };
}

/** The figure standing for a grade: its own, else the nearest priced grade below, else ungraded. */
export function valueAtGrade(grade: number, prices: GradedPrices): { valuedAs: string; cents: number } | null {
  const below = prices.grades.filter((p) => p.grade !== null && p.grade <= grade).sort((a, b) => b.grade! - a.grade!)[0];
  if (below) return { valuedAs: below.label, cents: below.cents };
  return prices.raw ? { valuedAs: prices.raw.label, cents: prices.raw.cents } : null;
}

/** Millionths of a dollar (basis points × cents) as exact dollars: 30864000 → "30.864". */
export function exactDollars(millionths: number): string {
  const sign = millionths < 0 ? '-' : '';
  const abs = Math.abs(millionths);
  const fraction = String(abs % 1_000_000).padStart(6, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${sign}${Math.floor(abs / 1_000_000)}.${fraction}`;
}

const money = (cents: number) => `${cents < 0 ? '−' : ''}$${dollarsOf(Math.abs(cents))}`;

export function verdictOf(gainCents: number, costCents: number): Verdict {
  if (gainCents * 100 >= costCents * WORTH_IT_MARGIN_PERCENT) return 'worth it';
  return gainCents >= 0 ? 'borderline' : 'not worth it';
}

export interface WorthGradingInput {
  cardId: string;
  estimate: PsaEstimate;
  /** Null when no per-grade price source is configured or it had no figures; `priceNote` says why. */
  prices: GradedPrices | null;
  priceNote: string | null;
  levels: readonly ServiceLevelTerms[];
}

export function worthGrading(input: WorthGradingInput): WorthGrading {
  const { canTell, note, odds } = gradeOdds(input.estimate);
  const base = { available: true as const, cardId: input.cardId, canTell, oddsNote: note, odds, thresholds: { worthItMarginPercent: WORTH_IT_MARGIN_PERCENT, text: THRESHOLDS_TEXT } };
  const prices = input.prices;
  const valued = prices?.raw ? odds.map((o) => ({ ...o, value: valueAtGrade(o.grade, prices) })) : null;
  if (!prices || !prices.raw || !valued || valued.some((v) => v.value === null)) {
    const priceNote = input.priceNote ?? (prices ? `${prices.source} has no ungraded price for this card, so grades it does not price cannot be valued.` : 'No per-grade price source is configured.');
    return { ...base, prices, priceNote, expected: null, levels: [] };
  }
  const rows = valued.map(({ grade, basisPoints, percent, value }) => ({
    grade,
    basisPoints,
    percent,
    valuedAs: value!.valuedAs,
    valueCents: value!.cents,
    value: dollarsOf(value!.cents),
    contribution: exactDollars(basisPoints * value!.cents),
  }));
  const sum = rows.reduce((total, r) => total + r.basisPoints * r.valueCents, 0);
  // Σ bp × cents is in ten-thousandths of a cent: one rounding, half up, at the end.
  const expectedCents = Math.floor((sum + TOTAL_BASIS_POINTS / 2) / TOTAL_BASIS_POINTS);
  const rawCents = prices.raw.cents;

  const levels: LevelOutcome[] = input.levels.map((level) => {
    let quote;
    try {
      quote = quoteOrder(
        { serviceLevel: level.code, cardCleaning: false, subgradesReport: false, heightMap: false, customShippingBox: false, slabCards: false, requireSignature: false, shippingInsurance: false, totalDeclaredValue: dollarsOf(rawCents) },
        input.levels,
      );
    } catch (error) {
      if (error instanceof AppError) return { offered: false, code: level.code, name: level.name, reason: error.message };
      throw error;
    }
    const costCents = quote.totalCents;
    const netCents = expectedCents - costCents;
    const gainCents = netCents - rawCents;
    const verdict = verdictOf(gainCents, costCents);
    const marginCents = Math.ceil((costCents * WORTH_IT_MARGIN_PERCENT) / 100);
    return {
      offered: true,
      code: level.code,
      name: level.name,
      costLines: quote.lines,
      costCents,
      cost: dollarsOf(costCents),
      netCents,
      net: dollarsOf(netCents),
      gainCents,
      gain: dollarsOf(gainCents),
      verdict,
      explanation:
        `${money(expectedCents)} expected − ${money(costCents)} cost − ${money(rawCents)} raw value = ${money(gainCents)} gain; ` +
        `worth it from ${money(marginCents)} (${WORTH_IT_MARGIN_PERCENT}% of the cost), borderline from $0.00.`,
    };
  });
  return {
    ...base,
    prices,
    priceNote: null,
    expected: { rows, valueCents: expectedCents, value: dollarsOf(expectedCents), rawCents, raw: dollarsOf(rawCents) },
    levels,
  };
}
