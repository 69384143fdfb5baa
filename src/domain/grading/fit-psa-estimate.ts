import type { PsaFeatureName, PsaFeatures, PsaModel, ResolutionCalibration, ResolutionClass } from './psa-estimate.ts';
import { PSA_FEATURE_NAMES, psaAnswer, rawPsaGrade, resolutionClass, toHalfGrade, wearScore } from './psa-estimate.ts';
import type { AgreementFigures } from './statistics.ts';
import { agreementFigures, bestConstantGuess, isotonicBlocks, median, mergeSmallBlocks, nonNegativeRidge, quantile, roundTo } from './statistics.ts';

// Fitting the PSA estimate (GRADING.md §2b) on professionally graded photos: pure, deterministic, a handful of
// parameters. Two steps, each monotone by construction:
//   1. a wear score: PSA's grade regressed on the wear features with every weight ≥ 0 (ridge, on standardised
//      features so no feature wins by its units), the score being Σ weight × feature;
//   2. the score's map to PSA's scale: isotonic (never rising) regression of the grade on the score, kept as knots.
// Cross-validated leave-one-out: each photo is estimated by a model fitted without it, and the range, the confidence,
// whether the estimate may claim to tell (each per resolution class) and the figures the calibration file states come
// from those estimates only. Where a resolution class's estimates did not beat the best constant guess, that class
// answers the guess within the measurements' range (psaAnswer): its confidence and figures are then those answers'.

/** Ridge penalty on standardised features: with ~60–80 photos it shrinks each weight by roughly a tenth, which keeps
 * nine features from chasing the noise of a few photos. */
export const RIDGE_LAMBDA = 6;
/** The estimate's range holds PSA's grade 80% of the time: from the 10th to the 90th percentile of the misses. */
const RANGE_LOW_QUANTILE = 0.1;
const RANGE_HIGH_QUANTILE = 0.9;
/** A step of the score's table stands on at least this many photos: one or two odd photos do not make a step. */
export const MIN_PHOTOS_PER_STEP = 3;
/** Below this many cross-validated photos a resolution class takes the pooled figures instead of its own. */
const MIN_ROWS_FOR_OWN_FIGURES = 10;

export interface FitRow {
  /** The wear features; centering null when it was not measurable. */
  features: Record<PsaFeatureName, number | null>;
  /** PSA's grade. */
  truth: number;
  /** The photo's resolution over the card (the coarser side's). */
  pxPerMm: number;
}

type CoreModel = Pick<PsaModel, 'centeringWhenNotMeasurable' | 'weights' | 'scoreToGrade'>;

function imputed(row: FitRow, centeringWhenNotMeasurable: number): PsaFeatures {
  const features = {} as PsaFeatures;
  for (const name of PSA_FEATURE_NAMES) features[name] = row.features[name] ?? centeringWhenNotMeasurable;
  return features;
}

function standardDeviation(values: readonly number[]): number {
  const m = values.reduce((s, v) => s + v, 0) / values.length;
  return Math.sqrt(values.reduce((s, v) => s + (v - m) ** 2, 0) / values.length);
}

/** Steps 1 and 2 on the given rows. */
export function fitCore(rows: readonly FitRow[], lambda = RIDGE_LAMBDA): CoreModel {
  if (rows.length < 2) throw new Error('fitting the PSA estimate needs at least two graded photos');
  const measuredCentering = rows.map((r) => r.features.centeringOffset).filter((v): v is number => v !== null);
  const centeringWhenNotMeasurable = measuredCentering.length > 0 ? median(measuredCentering) : 0;
  const features = rows.map((r) => imputed(r, centeringWhenNotMeasurable));
  const scales = PSA_FEATURE_NAMES.map((name) => standardDeviation(features.map((f) => f[name])));
  // A feature that never varies here carries no information: scale 0 keeps its column at 0 and its weight at 0.
  const standardised = features.map((f) => PSA_FEATURE_NAMES.map((name, j) => (scales[j]! > 0 ? f[name] / scales[j]! : 0)));
  // PSA's grade falls as wear grows: regress its negative so the non-negative weights are the wear's.
  const { weights: standardWeights } = nonNegativeRidge(standardised, rows.map((r) => -r.truth), lambda);
  const weights = {} as Record<PsaFeatureName, number>;
  PSA_FEATURE_NAMES.forEach((name, j) => {
    weights[name] = scales[j]! > 0 ? standardWeights[j]! / scales[j]! : 0;
  });
  const scores = features.map((f) => wearScore(f, { weights }));
  const blocks = mergeSmallBlocks(isotonicBlocks(scores, rows.map((r) => r.truth), 'decreasing'), MIN_PHOTOS_PER_STEP);
  return { centeringWhenNotMeasurable, weights, scoreToGrade: blocks.map((b) => [b.x, b.y] as const) };
}

export interface CrossValidation {
  /** Half-grade estimates, each from a model fitted without that photo, against PSA's grades. */
  estimate: AgreementFigures;
  /** The same from the measurements everywhere, the constant guess nowhere (crossValidate's own estimate). */
  measurementsAlone: AgreementFigures;
  /**
   * The best constant guess, judged the same way: the median of all the photos' grades, the in-sample best constant,
   * as bench:graded states it. Not the median of the others: leaving a photo out pushes that median away from it
   * (with grades spread evenly, always to the wrong side), which would make the constant look worse than it is.
   */
  constantGuess: AgreementFigures;
  /** Per photo, in the rows' order: the unrounded out-of-fold estimate. */
  outOfFold: number[];
}

export function crossValidate(rows: readonly FitRow[], lambda = RIDGE_LAMBDA): CrossValidation {
  const outOfFold = rows.map((row, i) => {
    const others = rows.filter((_, k) => k !== i);
    const model = fitCore(others, lambda);
    return rawPsaGrade(imputed(row, model.centeringWhenNotMeasurable), model);
  });
  const truths = rows.map((r) => r.truth);
  const constant = bestConstantGuess(truths);
  const estimate = agreementFigures(outOfFold.map(toHalfGrade), truths);
  return { estimate, measurementsAlone: estimate, constantGuess: agreementFigures(truths.map(() => constant), truths), outOfFold };
}

/**
 * The cross-validated figures of some rows: the range of their misses, their within-one share, and whether they beat
 * `constant` (the best constant guess of all the rows, as the calibration states it) on mean |Δ|.
 */
function calibrationOf(rows: readonly FitRow[], outOfFold: readonly number[], constant: number): ResolutionCalibration {
  const truths = rows.map((r) => r.truth);
  const misses = rows.map((r, i) => r.truth - outOfFold[i]!);
  const estimate = agreementFigures(outOfFold.map(toHalfGrade), truths);
  return {
    below: roundTo(quantile(misses, RANGE_LOW_QUANTILE), 2),
    above: roundTo(quantile(misses, RANGE_HIGH_QUANTILE), 2),
    withinOne: roundTo(estimate.withinOne, 2),
    beatsConstantGuess: estimate.meanAbsError < agreementFigures(truths.map(() => constant), truths).meanAbsError,
  };
}

/**
 * The whole fit: the model on every row; per resolution class, from the cross-validation, whether its measurements
 * beat the constant guess and, as the class then answers (the measurements, or the guess), its range and confidence
 * ceiling; and the figures of those answers.
 */
export function fitPsaModel(rows: readonly FitRow[], lambda = RIDGE_LAMBDA): { model: PsaModel; crossValidation: CrossValidation } {
  const core = fitCore(rows, lambda);
  const measured = crossValidate(rows, lambda);
  const constant = bestConstantGuess(rows.map((r) => r.truth));
  // A class is judged on its own photos, or on all of them where it has too few.
  const photosOf = (wanted: ResolutionClass) => {
    const own = rows.map((r, i) => (resolutionClass(r.pxPerMm) === wanted ? i : -1)).filter((i) => i >= 0);
    return own.length < MIN_ROWS_FOR_OWN_FIGURES ? rows.map((_, i) => i) : own;
  };
  const calibrationOver = (wanted: ResolutionClass, outOfFold: readonly number[]) =>
    calibrationOf(
      photosOf(wanted).map((i) => rows[i]!),
      photosOf(wanted).map((i) => outOfFold[i]!),
      constant,
    );
  // The measurements' range and whether they beat the guess, per class; then what each class answers, and how often
  // that was within one of PSA's grade.
  const measuredCalibration = { fullDetail: calibrationOver('fullDetail', measured.outOfFold), coarse: calibrationOver('coarse', measured.outOfFold) };
  const outOfFold = rows.map((r, i) => psaAnswer(measured.outOfFold[i]!, measuredCalibration[resolutionClass(r.pxPerMm)], constant).grade);
  const classCalibration = (wanted: ResolutionClass): ResolutionCalibration => ({ ...measuredCalibration[wanted], withinOne: calibrationOver(wanted, outOfFold).withinOne });
  const weights = {} as Record<PsaFeatureName, number>;
  for (const name of PSA_FEATURE_NAMES) weights[name] = roundTo(core.weights[name], 4);
  const model: PsaModel = {
    centeringWhenNotMeasurable: roundTo(core.centeringWhenNotMeasurable, 2),
    weights,
    scoreToGrade: core.scoreToGrade.map(([score, grade]) => [roundTo(score, 4), roundTo(grade, 2)] as const),
    byResolution: { fullDetail: classCalibration('fullDetail'), coarse: classCalibration('coarse') },
    constantGuess: constant,
  };
  const truths = rows.map((r) => r.truth);
  return {
    model,
    crossValidation: { ...measured, estimate: agreementFigures(outOfFold.map(toHalfGrade), truths), outOfFold },
  };
}

/**
 * Leave-one-out of the whole fit, the choice of which classes answer the guess included: each photo estimated as the
 * shipped estimate would estimate it, by everything fitPsaModel does fitted without it. fitPsaModel's own figures
 * choose that from all the photos, the one left out among them; these do not, so they say what to expect on photos
 * the calibration has never seen. It fits n × n models: seconds on a hundred photos, for the fitting script.
 */
export function crossValidateWholeFit(rows: readonly FitRow[], lambda = RIDGE_LAMBDA): AgreementFigures {
  const estimates = rows.map((row, i) => {
    const { model } = fitPsaModel(
      rows.filter((_, k) => k !== i),
      lambda,
    );
    return psaAnswer(rawPsaGrade(imputed(row, model.centeringWhenNotMeasurable), model), model.byResolution[resolutionClass(row.pxPerMm)], model.constantGuess).grade;
  });
  return agreementFigures(estimates, rows.map((r) => r.truth));
}
