import { CARD_HEIGHT_MM, CARD_WIDTH_MM } from '../contracts/measurement.ts';
import type { CornerMeasurement, CornerName, Defect } from '../contracts/measurement.ts';
import { CARD_CORNER_RADIUS_MM, CORNER_NAMES, CORNER_ZONE_MM, cornerOutline } from './card-outline.ts';
import type { OutlineSample } from './card-outline.ts';
import type { FlatCard } from './flatten.ts';
import { mmToPx } from './flatten.ts';
import { round } from './geometry.ts';
import { sampleRgb } from './image.ts';
import { RIM_TO_MM, RING_FROM_MM, RING_TO_MM, isWhiteBorder, outlineCrossing, referenceColour, whitenedRuns, whiteningScore } from './rim.ts';
import type { ReferenceColour } from './rim.ts';

const STEP_MM = 0.05;
/** Profiles run from this far outside the nominal outline... */
const OUTSIDE_MM = 0.6;
/** ...to this far inside it. */
const INSIDE_MM = 2.2;
/** A corner whose outline sits this far in along its diagonal is rounded (a 3 mm radius sits 1.24 mm in). */
const ROUNDED_DIAGONAL_MM = 0.6;
/** Below these, a corner is clean: what is left is the noise of the photo. */
const FRAY_DEFECT_MM = 0.15;
const WHITENING_DEFECT_MM = 0.2;
/** Whitened stretches shorter than this are noise. */
const WHITENING_MIN_MM = 0.25;

export interface CornerReport {
  cornerStyle: 'rounded' | 'square';
  corners: CornerMeasurement[];
  defects: Defect[];
}

/** GRADING.md §1.6 for the four corners: fray against the nominal corner, whitening along the rim. */
export function measureCorners(flat: FlatCard, rimStart: number | null, noise: number): CornerReport {
  const rounded = median(CORNER_NAMES.map((corner) => diagonalInset(flat, corner, noise))) > ROUNDED_DIAGONAL_MM;
  const radius = rounded ? CARD_CORNER_RADIUS_MM : 0;
  const corners: CornerMeasurement[] = [];
  const defects: Defect[] = [];
  for (const corner of CORNER_NAMES) {
    const result = measureCorner(flat, corner, radius, rimStart, noise);
    corners.push(result.measurement);
    defects.push(...result.defects);
  }
  return { cornerStyle: rounded ? 'rounded' : 'square', corners, defects };
}

/** How far in from the virtual corner the card begins along the corner's diagonal. */
function diagonalInset(flat: FlatCard, corner: CornerName, noise: number): number {
  const flipX = corner === 'topRight' || corner === 'bottomRight';
  const flipY = corner === 'bottomLeft' || corner === 'bottomRight';
  const nx = flipX ? -Math.SQRT1_2 : Math.SQRT1_2;
  const ny = flipY ? -Math.SQRT1_2 : Math.SQRT1_2;
  const tip: OutlineSample = { x: flipX ? CARD_WIDTH_MM : 0, y: flipY ? CARD_HEIGHT_MM : 0, nx, ny, s: 0 };
  const reference = ringColour(flat, [{ ...tip, x: tip.x + 2 * nx, y: tip.y + 2 * ny }]);
  const { profile, count } = profileAlong(flat, tip);
  const crossing = outlineCrossing(profile, count, Math.round(0.25 / STEP_MM), reference, noise);
  return crossing === null ? 0 : crossing * STEP_MM - OUTSIDE_MM;
}

function measureCorner(flat: FlatCard, corner: CornerName, radius: number, rimStart: number | null, noise: number): { measurement: CornerMeasurement; defects: Defect[] } {
  const outline = cornerOutline(corner, radius, CORNER_ZONE_MM, STEP_MM);
  const reference = ringColour(flat, outline);
  // Whitening is not observable on a white border, nor in a photo too blurred to separate rim from background.
  const observable = rimStart !== null && !isWhiteBorder(reference);
  const outside = Math.round(0.25 / STEP_MM);
  const departures = new Float64Array(outline.length);
  const whitening = new Float64Array(outline.length);
  outline.forEach((point, i) => {
    const { profile, count } = profileAlong(flat, point);
    const crossing = outlineCrossing(profile, count, outside, reference, noise);
    const at = crossing === null ? count - 1 : crossing;
    departures[i] = at * STEP_MM - OUTSIDE_MM;
    if (observable) {
      whitening[i] = whiteningScore(profile, Math.ceil(at + rimStart / STEP_MM), Math.floor(at + RIM_TO_MM / STEP_MM) + 1, reference);
    }
  });

  // Fray: the largest inward departure, over three neighbours so one noisy profile does not decide it.
  let fray = 0;
  let frayAt = 0;
  for (let i = 1; i < departures.length - 1; i++) {
    const smoothed = median([departures[i - 1]!, departures[i]!, departures[i + 1]!]);
    if (smoothed > fray) { fray = smoothed; frayAt = i; }
  }
  const runs = observable ? whitenedRuns(whitening, 2, Math.round(WHITENING_MIN_MM / STEP_MM)) : [];
  const whitenedLength = runs.reduce((sum, [from, to]) => sum + (to - from) * STEP_MM, 0);
  const frayMm = round(fray);
  const whitenedMm = observable ? round(whitenedLength) : null;
  const defectMm = round(Math.max(frayMm, whitenedMm ?? 0));

  const defects: Defect[] = [];
  if (frayMm >= FRAY_DEFECT_MM) {
    const from = Math.max(0, frayAt - 10);
    const to = Math.min(outline.length, frayAt + 11);
    defects.push({ kind: 'corner-fray', location: corner, box: boxAround(outline.slice(from, to), fray), sizeMm: frayMm, depthMm: frayMm });
  }
  if (whitenedMm !== null && whitenedMm >= WHITENING_DEFECT_MM) {
    const first = runs[0]![0];
    const last = runs[runs.length - 1]![1];
    defects.push({
      kind: 'corner-whitening',
      location: corner,
      box: boxAround(outline.slice(first, last), RIM_TO_MM),
      sizeMm: whitenedMm,
      lengthMm: whitenedMm,
    });
  }
  return { measurement: { corner, frayMm, whitenedMm, defectMm }, defects };
}

/** Colours along the inward normal at an outline point, from OUTSIDE_MM outside to INSIDE_MM inside, every STEP_MM. */
function profileAlong(flat: FlatCard, point: OutlineSample): { profile: Float64Array; count: number } {
  const count = Math.round((OUTSIDE_MM + INSIDE_MM) / STEP_MM) + 1;
  const profile = new Float64Array(count * 3);
  const colour = new Float64Array(3);
  for (let i = 0; i < count; i++) {
    const t = i * STEP_MM - OUTSIDE_MM;
    sampleRgb(flat, mmToPx(flat, point.x + point.nx * t), mmToPx(flat, point.y + point.ny * t), colour);
    profile[i * 3] = colour[0]!;
    profile[i * 3 + 1] = colour[1]!;
    profile[i * 3 + 2] = colour[2]!;
  }
  return { profile, count };
}

/** The card's own colour 1–2 mm inside the given outline points. */
function ringColour(flat: FlatCard, outline: readonly OutlineSample[]): ReferenceColour {
  const colour = new Float64Array(3);
  let r = 0;
  let g = 0;
  let b = 0;
  let n = 0;
  for (const point of outline) {
    for (let t = RING_FROM_MM; t <= RING_TO_MM + 1e-9; t += 0.25) {
      sampleRgb(flat, mmToPx(flat, point.x + point.nx * t), mmToPx(flat, point.y + point.ny * t), colour);
      r += colour[0]!;
      g += colour[1]!;
      b += colour[2]!;
      n++;
    }
  }
  return referenceColour(r / n, g / n, b / n);
}

function boxAround(points: readonly OutlineSample[], depth: number) {
  const xs = points.flatMap((p) => [p.x, p.x + p.nx * depth]);
  const ys = points.flatMap((p) => [p.y, p.y + p.ny * depth]);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x: round(x), y: round(y), width: round(Math.max(...xs) - x), height: round(Math.max(...ys) - y) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
