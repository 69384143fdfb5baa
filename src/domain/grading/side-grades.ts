import type { Subgrades } from '../../contracts/grading.ts';
import type { CornerMeasurement, EdgeMeasurement, SideMeasurement, SurfaceMeasurement } from '../../contracts/measurement.ts';
import {
  BACK_CENTERING,
  CORNER_DEFECT,
  EDGE_NICK_DEPTH,
  EDGE_WHITENING,
  FRONT_CENTERING,
  interpolate,
  roundGrade,
  SURFACE_SCRATCH_LENGTH,
  SURFACE_SPOTS,
} from './tables.ts';

// One side's subgrades from its measurements (GRADING.md §2), then its overall (SPEC.md §9).

const OTHER_DAMAGE_PENALTY = 0.25;
/** A corner with D above this counts against the card besides the worst one (GRADING.md §2). */
const CORNER_DAMAGE_MM = 0.25;
/** An edge counts as damaged when its own grade is below 9.5: the same bar as a corner with D > 0.25 mm. */
const DAMAGED_EDGE_GRADE = 9.5;
const PRINT_LINE_CAP = 9;
/** A crease or fold caps every grade at 4. */
export const CREASE_CAP = 4;
const LOWEST_GRADE = 1;

/** Per-side weights of SPEC.md §9: centering 15%, corners 35%, edges 15%, surface 35%. */
const WEIGHTS = { centering: 0.15, corners: 0.35, edges: 0.15, surface: 0.35 } as const;

export interface SideGrade {
  grades: Subgrades;
  overall: number;
  creased: boolean;
}

export function centeringGrade(measurement: SideMeasurement): number | null {
  const { centering } = measurement;
  if (!centering.measurable) return null;
  const worstShare = Math.max(centering.horizontal.worstShare, centering.vertical.worstShare);
  return interpolate(measurement.side === 'front' ? FRONT_CENTERING : BACK_CENTERING, worstShare);
}

export function cornersGrade(corners: readonly CornerMeasurement[]): number {
  const defects = corners.map((c) => c.defectMm).sort((a, b) => b - a);
  const [worst = 0, ...others] = defects;
  const damagedOthers = others.filter((d) => d > CORNER_DAMAGE_MM).length;
  const penalty = Math.min(3, damagedOthers) * OTHER_DAMAGE_PENALTY;
  return Math.max(LOWEST_GRADE, interpolate(CORNER_DEFECT, worst) - penalty);
}

/** One edge: the lower of its whitening grade and its deepest nick's grade. Unobservable whitening is no evidence of wear. */
export function edgeGrade(edge: EdgeMeasurement): number {
  const whitening = edge.whitenedMm === null ? 10 : interpolate(EDGE_WHITENING, edge.whitenedMm);
  const deepestNick = edge.nicks.reduce((deepest, nick) => Math.max(deepest, nick.depthMm), 0);
  return Math.min(whitening, interpolate(EDGE_NICK_DEPTH, deepestNick));
}

export function edgesGrade(edges: readonly EdgeMeasurement[]): number {
  const grades = edges.map(edgeGrade).sort((a, b) => a - b);
  const [worst = 10, ...others] = grades;
  const damagedOthers = others.filter((g) => g < DAMAGED_EDGE_GRADE).length;
  return Math.max(LOWEST_GRADE, worst - damagedOthers * OTHER_DAMAGE_PENALTY);
}

export function surfaceGrade(surface: SurfaceMeasurement): number {
  const grade = Math.min(interpolate(SURFACE_SCRATCH_LENGTH, surface.scratchLengthMm), interpolate(SURFACE_SPOTS, surface.spotCount));
  return surface.printLine ? Math.min(PRINT_LINE_CAP, grade) : grade;
}

/**
 * 15/35/15/35 over the subgrades. Without a centering grade (borderless) the other three keep their
 * proportions (35/15/35 of 85): a ratio we cannot measure neither lifts nor sinks the card.
 */
export function overallOf(grades: Subgrades): number {
  let sum = WEIGHTS.corners * grades.corners + WEIGHTS.edges * grades.edges + WEIGHTS.surface * grades.surface;
  let weight = WEIGHTS.corners + WEIGHTS.edges + WEIGHTS.surface;
  if (grades.centering !== null) {
    sum += WEIGHTS.centering * grades.centering;
    weight += WEIGHTS.centering;
  }
  return roundGrade(sum / weight);
}

export function capGrades(grades: Subgrades, cap: number): Subgrades {
  return {
    centering: grades.centering === null ? null : Math.min(cap, grades.centering),
    corners: Math.min(cap, grades.corners),
    edges: Math.min(cap, grades.edges),
    surface: Math.min(cap, grades.surface),
  };
}

/** Subgrades rounded to 0.1 first, so the overall is what a person gets from the subgrades on screen. */
export function gradeSide(measurement: SideMeasurement): SideGrade {
  const centering = centeringGrade(measurement);
  let grades: Subgrades = {
    centering: centering === null ? null : roundGrade(centering),
    corners: roundGrade(cornersGrade(measurement.corners)),
    edges: roundGrade(edgesGrade(measurement.edges)),
    surface: roundGrade(surfaceGrade(measurement.surface)),
  };
  const creased = measurement.surface.crease;
  if (creased) grades = capGrades(grades, CREASE_CAP);
  return { grades, overall: overallOf(grades), creased };
}
