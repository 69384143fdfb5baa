import type { PsaEstimate } from '../../contracts/grading.ts';
import type { SideMeasurement } from '../../contracts/measurement.ts';
import { PSA_CALIBRATION } from './psa-calibration.ts';
import { interpolateKnots, roundTo, type AgreementFigures } from './statistics.ts';

// The PSA estimate (GRADING.md §2b): the grade a PSA grader would most likely give the card in the photo, from the
// engine's measurements alone (never a slab's label). Explainable in one sentence: a wear score is a weighted sum of a
// few measured wear features (weights ≥ 0, fitted on professionally graded photos), and a monotone table turns the
// score into a PSA grade; the range and confidence come from how far that model missed on photos it was not fitted on.
// More wear never raises the estimate: every feature grows with wear, every weight is ≥ 0, the table only falls.

/** The wear features, each 0 for a flawless card and growing with wear. Their scales are GRADING.md §2's first steps. */
export const PSA_FEATURE_NAMES = [
  'centeringOffset',
  'worstCorner',
  'otherCorners',
  'edgeWhitening',
  'deepestNick',
  'scratches',
  'spots',
  'printLine',
  'crease',
] as const;
export type PsaFeatureName = (typeof PSA_FEATURE_NAMES)[number];
export type PsaFeatures = Record<PsaFeatureName, number>;

/** Corner defects and nicks: their tables' first step, 0.1 mm, the size below which GRADING.md sees no wear. */
const SMALL_DEFECT_MM = 0.1;
/** Edge whitening's first table step (1 mm gives 9.5). */
const EDGE_WHITENING_STEP_MM = 1;
/** Scratch length's first table step (2 mm gives 9.5). */
const SCRATCH_STEP_MM = 2;
/** GRADING.md's 60/40 front/back weighting, as for the subgrades. */
const FRONT_WEIGHT = 0.6;
const BACK_WEIGHT = 0.4;

/** Under this the vision reports that corners, edges and surface fall below what the photo shows (src/vision/quality.ts). */
export const FULL_DETAIL_PX_PER_MM = 10;
/** Below this confidence the estimate says it cannot tell rather than give a grade to act on. */
export const CAN_TELL_CONFIDENCE = 0.4;
/** The engine's own doubt about its measurements (glare, blur, holo faces) can at most halve the estimate's confidence. */
const MEASUREMENT_DOUBT_WEIGHT = 0.5;
const LOWEST_PSA = 1;
const HIGHEST_PSA = 10;

const log1pOver = (value: number, step: number) => Math.log1p(Math.max(0, value) / step);

/**
 * One side's wear features. Sizes enter as ln(1 + size / step): a doubling of a large defect counts about as much as
 * the step from clean to the first visible wear, as the grading tables themselves do. Centering is the worse axis's
 * share over 50 (0..50), null when not measurable (borderless): the calibration then supplies its typical value.
 */
export function sideFeatures(side: SideMeasurement): Record<PsaFeatureName, number | null> {
  const defects = side.corners.map((c) => c.defectMm).sort((a, b) => b - a);
  const [worst = 0, ...others] = defects;
  const whitened = side.edges.reduce((sum, e) => sum + (e.whitenedMm ?? 0), 0);
  const deepestNick = side.edges.reduce((deepest, e) => e.nicks.reduce((d, n) => Math.max(d, n.depthMm), deepest), 0);
  const { centering, surface } = side;
  return {
    centeringOffset: centeringOffset(centering),
    worstCorner: log1pOver(worst, SMALL_DEFECT_MM),
    otherCorners: others.reduce((sum, d) => sum + log1pOver(d, SMALL_DEFECT_MM), 0),
    edgeWhitening: log1pOver(whitened, EDGE_WHITENING_STEP_MM),
    deepestNick: log1pOver(deepestNick, SMALL_DEFECT_MM),
    scratches: log1pOver(surface.scratchLengthMm, SCRATCH_STEP_MM),
    spots: Math.log1p(surface.spotCount),
    printLine: surface.printLine ? 1 : 0,
    crease: surface.crease ? 1 : 0,
  };
}

/** The worse measured axis's share over 50; where only one axis was measured, that one's (the card is at least that far off). */
function centeringOffset(centering: SideMeasurement['centering']): number | null {
  const shares = [centering.horizontal?.worstShare, centering.vertical?.worstShare].filter((share) => share !== undefined);
  return shares.length === 0 ? null : Math.max(...shares) - 50;
}

/**
 * The card's features: the front's, or with a back the 60/40 blend (a crease seen on either side counts whole);
 * an unmeasurable centering takes `centeringWhenNotMeasurable`.
 */
export function psaFeatures(sides: { front: SideMeasurement; back?: SideMeasurement }, centeringWhenNotMeasurable: number): PsaFeatures {
  const front = sideFeatures(sides.front);
  const back = sides.back ? sideFeatures(sides.back) : undefined;
  const features = {} as PsaFeatures;
  for (const name of PSA_FEATURE_NAMES) {
    const f = front[name] ?? centeringWhenNotMeasurable;
    if (!back) features[name] = f;
    else if (name === 'crease') features[name] = Math.max(f, back[name] ?? 0);
    else features[name] = FRONT_WEIGHT * f + BACK_WEIGHT * (back[name] ?? centeringWhenNotMeasurable);
  }
  return features;
}

/** The fitted parameters: the shape of src/domain/grading/psa-calibration.ts, which npm run fit:grades writes. */
export interface PsaModel {
  centeringWhenNotMeasurable: number;
  /** Weight of each feature in the wear score, all ≥ 0. */
  weights: Readonly<Record<PsaFeatureName, number>>;
  /** [wear score, PSA grade] knots, scores ascending, grades never rising: the score's monotone map to PSA's scale. */
  scoreToGrade: readonly (readonly [number, number])[];
  /**
   * How the model did on photos it was not fitted on, separately for photos at full detail and coarse ones (under
   * FULL_DETAIL_PX_PER_MM): a photo's estimate takes its range, confidence and whether it may claim to tell from its
   * own class, since what the measurements say about a PSA grade depends on the detail they were read at.
   */
  byResolution: Readonly<Record<ResolutionClass, ResolutionCalibration>>;
  /**
   * The best constant guess on the photos it was fitted on (their median PSA grade). Where a resolution class's
   * measurements did not beat it, the grade PSA most likely gives a card photographed so is this guess, as far as the
   * measurements' own range allows: the estimate gives that (psaAnswer), and says it cannot tell.
   */
  constantGuess: number;
}

/** Photos at full detail (FULL_DETAIL_PX_PER_MM and more) and coarse ones. */
export type ResolutionClass = 'fullDetail' | 'coarse';

export function resolutionClass(pxPerMm: number): ResolutionClass {
  return pxPerMm < FULL_DETAIL_PX_PER_MM ? 'coarse' : 'fullDetail';
}

/** The cross-validated figures of one resolution class. */
export interface ResolutionCalibration {
  /** How far the truth fell from the estimate (signed, truth − estimate) at 10% and at 90%: the estimate's 80% range. */
  readonly below: number;
  readonly above: number;
  /** Share of the estimates within one grade of PSA's: the confidence's ceiling. */
  readonly withinOne: number;
  /**
   * Whether the measurements' estimates beat the best constant guess (mean |Δ|) on these photos; without that, the
   * estimate is the guess kept within the measurements' range (psaAnswer), and never claims to tell. The range is the
   * measurements' misses either way; the within-one share is that of what the class answers.
   */
  readonly beatsConstantGuess: boolean;
}

export function wearScore(features: PsaFeatures, model: Pick<PsaModel, 'weights'>): number {
  return PSA_FEATURE_NAMES.reduce((sum, name) => sum + model.weights[name] * features[name], 0);
}

/** The model's grade before rounding, 1..10. */
export function rawPsaGrade(features: PsaFeatures, model: Pick<PsaModel, 'weights' | 'scoreToGrade'>): number {
  return Math.min(HIGHEST_PSA, Math.max(LOWEST_PSA, interpolateKnots(model.scoreToGrade, wearScore(features, model))));
}

/** PSA grades in halves: the nearest half grade, half up. */
export function toHalfGrade(value: number): number {
  return Math.min(HIGHEST_PSA, Math.max(LOWEST_PSA, Math.round(Number((value * 2).toFixed(6))) / 2));
}

const floorHalf = (value: number) => Math.max(LOWEST_PSA, Math.floor(Number((value * 2).toFixed(6))) / 2);
const ceilHalf = (value: number) => Math.min(HIGHEST_PSA, Math.ceil(Number((value * 2).toFixed(6))) / 2);

/** The coarser side's resolution over the card, and the lower measurement confidence. */
function photoEvidence(sides: { front: SideMeasurement; back?: SideMeasurement }): { pxPerMm: number; measurementConfidence: number } {
  const measured = sides.back ? [sides.front, sides.back] : [sides.front];
  return {
    pxPerMm: Math.min(...measured.map((m) => m.quality.sourcePxPerMm)),
    measurementConfidence: Math.min(...measured.map((m) => m.confidence)),
  };
}

/**
 * 0..1, roughly the chance PSA's grade is within one of the estimate: the within-one share cross-validated on photos
 * of this resolution class, scaled by the square root of the resolution against full detail (a 5 px/mm photo shows
 * corners and edges only coarsely) and by the engine's confidence in its measurements.
 */
export function psaConfidence(model: Pick<PsaModel, 'byResolution'>, pxPerMm: number, measurementConfidence: number): number {
  const resolution = Math.sqrt(Math.min(1, Math.max(0, pxPerMm) / FULL_DETAIL_PX_PER_MM));
  const doubt = 1 - MEASUREMENT_DOUBT_WEIGHT + MEASUREMENT_DOUBT_WEIGHT * Math.min(1, Math.max(0, measurementConfidence));
  const { withinOne } = model.byResolution[resolutionClass(pxPerMm)];
  return roundTo(Math.min(1, Math.max(0, withinOne * resolution * doubt)), 2);
}

/**
 * What a photo's class answers for a measured raw grade, as a half grade in its range: the measurements' grade where
 * they beat the constant guess; elsewhere the guess, unless the measurements' own range rules it out (a card worn
 * well past what the guess allows), then the nearest end of that range.
 */
export function psaAnswer(raw: number, calibration: ResolutionCalibration, constantGuess: number): { grade: number; low: number; high: number } {
  const measuredLow = floorHalf(raw + calibration.below);
  const measuredHigh = ceilHalf(raw + calibration.above);
  const grade = calibration.beatsConstantGuess ? toHalfGrade(raw) : Math.min(measuredHigh, Math.max(measuredLow, constantGuess));
  return { grade, low: Math.min(grade, measuredLow), high: Math.max(grade, measuredHigh) };
}

export function estimatePsaGrade(sides: { front: SideMeasurement; back?: SideMeasurement }, model: PsaModel = PSA_CALIBRATION.model): PsaEstimate {
  const { pxPerMm, measurementConfidence } = photoEvidence(sides);
  const resolution = resolutionClass(pxPerMm);
  const calibration = model.byResolution[resolution];
  const { grade, low, high } = psaAnswer(rawPsaGrade(psaFeatures(sides, model.centeringWhenNotMeasurable), model), calibration, model.constantGuess);
  const confidence = psaConfidence(model, pxPerMm, measurementConfidence);
  let reason: string | null = null;
  if (!calibration.beatsConstantGuess)
    reason = `On professionally graded photos with this much detail, the measurements have not yet predicted PSA grades better than a fixed guess (PSA ${model.constantGuess}, the middle grade of those photos): the estimate is that guess where the measured range allows it.`;
  else if (confidence < CAN_TELL_CONFIDENCE)
    reason = resolution === 'coarse'
      ? `The photo shows the card at ${roundTo(pxPerMm, 1)} px/mm, too coarse for the corners, edges and surface that decide a PSA grade.`
      : 'The measurements are too uncertain (glare, blur or a textured face) to tell a PSA grade.';
  return { grade, low, high, confidence, canTell: reason === null, reason };
}

/** What the calibration file holds: the model, where it came from, and how well it did on photos it was not fitted on. */
export interface PsaCalibration {
  provenance: {
    /** The photo sets it was fitted on (a labels.json's file prefixes), with how many photos each and how many graded. */
    fittedOn: readonly { set: string; photos: number; graded: number }[];
    date: string;
    /** Hash of the measuring code's text the photos were measured with (bench/graded-photos.ts). */
    engineVersion: string;
    method: string;
  };
  model: PsaModel;
  /**
   * Leave-one-out figures against PSA: the estimate as it answers (the constant guess where its class did not beat
   * it), the measurements' own answers everywhere, the best constant guess, and the engine's own overall grade.
   */
  crossValidated: Readonly<Record<'estimate' | 'measurementsAlone' | 'constantGuess' | 'engineOverallGrade', Readonly<CalibrationFigures>>>;
}

/** The cross-validated figures a calibration ships with: the agreement figures of statistics.ts. */
export type CalibrationFigures = AgreementFigures;
