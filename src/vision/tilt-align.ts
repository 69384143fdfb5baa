import type { Point } from '../contracts/measurement.ts';
import type { CardSize } from './card-formats.ts';
import { cardCornersMm } from './card-formats.ts';
import { applyHomography, homographyFromPoints } from './geometry.ts';

// The tilt shot's registration, refined: a card's outline found in a video frame can sit a few tenths of a millimetre
// off along one side (a motion-blurred edge, the lamp's glare on the rim), and print a few tenths off reads as light
// that moved. Near each of the card's corners a patch of the frame's flattened card is matched to the same patch of the
// reference (the front), and the frame's outline is corrected so the four patches land where the reference has them.

/** The patches: this wide, their middles this far in from each corner (the border's corner and some art, inside the rim). */
const PATCH_MM = 10;
const PATCH_INSET_MM = 6.5;
/** Searched this far each way: more than an outline found a little off, less than the border's width. */
const SEARCH_MM = 1.2;
/**
 * A patch's match is trusted from this normalised correlation up: a patch of flat colour matches anywhere, and one the
 * lamp's glare washes out matches nowhere; the frame's outline is then kept as found.
 */
const MIN_CORRELATION = 0.6;

export interface FlatLightness {
  lightness: Float32Array;
  width: number;
  height: number;
  pxPerMm: number;
}

/**
 * `quad` (the frame's card, as found) corrected so that the frame's flattened card, `frame`, lines up with `reference`
 * at the four corner patches; `quad` itself when a patch cannot be matched.
 */
export function alignedQuad(quad: readonly Point[], size: CardSize, frame: FlatLightness, reference: FlatLightness): Point[] {
  const { pxPerMm } = frame;
  const toSource = homographyFromPoints(cardCornersMm(size), quad);
  const centres: Point[] = [
    { x: PATCH_INSET_MM, y: PATCH_INSET_MM },
    { x: size.widthMm - PATCH_INSET_MM, y: PATCH_INSET_MM },
    { x: size.widthMm - PATCH_INSET_MM, y: size.heightMm - PATCH_INSET_MM },
    { x: PATCH_INSET_MM, y: size.heightMm - PATCH_INSET_MM },
  ];
  const moved: Point[] = [];
  for (const centre of centres) {
    const shift = patchShift(frame, reference, Math.round(centre.x * pxPerMm), Math.round(centre.y * pxPerMm), Math.round((PATCH_MM / 2) * pxPerMm), Math.round(SEARCH_MM * pxPerMm));
    if (shift === null) return [...quad];
    // What the reference shows at the centre, the frame shows `shift` away: that is where the centre lies in the frame.
    moved.push(applyHomography(toSource, centre.x + shift.x / pxPerMm, centre.y + shift.y / pxPerMm));
  }
  const corrected = homographyFromPoints(centres, moved);
  return cardCornersMm(size).map((corner) => applyHomography(corrected, corner.x, corner.y));
}

/**
 * Where the reference's patch (centred on cx, cy, `half` pixels each way) lies in the frame, in pixels from where it
 * lies in the reference: the normalised correlation's best integer shift within `search`, refined by a parabola
 * through its neighbours. Null when the best is under MIN_CORRELATION.
 */
function patchShift(frame: FlatLightness, reference: FlatLightness, cx: number, cy: number, half: number, search: number): Point | null {
  const { width } = frame;
  const size = 2 * half + 1;
  const patch = new Float64Array(size * size);
  let mean = 0;
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) mean += patch[y * size + x] = reference.lightness[(cy - half + y) * width + cx - half + x]!;
  mean /= patch.length;
  let energy = 0;
  for (let i = 0; i < patch.length; i++) {
    patch[i]! -= mean;
    energy += patch[i]! * patch[i]!;
  }
  if (energy === 0) return null;
  const span = 2 * search + 1;
  const scores = new Float64Array(span * span).fill(-1);
  let best = -1;
  let bestAt = 0;
  for (let dy = -search; dy <= search; dy++) {
    for (let dx = -search; dx <= search; dx++) {
      const score = correlation(frame, patch, energy, cx - half + dx, cy - half + dy, size);
      const at = (dy + search) * span + dx + search;
      scores[at] = score;
      if (score > best) [best, bestAt] = [score, at];
    }
  }
  if (best < MIN_CORRELATION) return null;
  const ix = bestAt % span;
  const iy = (bestAt - ix) / span;
  const peak = (before: number, after: number) => {
    const curvature = before - 2 * best + after;
    return curvature < 0 ? (0.5 * (before - after)) / curvature : 0;
  };
  const sub = (i: number, step: number, limit: number) => (i > 0 && i < limit - 1 ? peak(scores[bestAt - step]!, scores[bestAt + step]!) : 0);
  return { x: ix - search + sub(ix, 1, span), y: iy - search + sub(iy, span, span) };
}

/** Normalised correlation of the zero-mean `patch` with the frame's size × size square at (x0, y0); -1 off the card. */
function correlation(frame: FlatLightness, patch: Float64Array, energy: number, x0: number, y0: number, size: number): number {
  const { lightness, width, height } = frame;
  if (x0 < 0 || y0 < 0 || x0 + size > width || y0 + size > height) return -1;
  let sum = 0;
  let sumSquares = 0;
  let cross = 0;
  for (let y = 0; y < size; y++) {
    const row = (y0 + y) * width + x0;
    for (let x = 0; x < size; x++) {
      const value = lightness[row + x]!;
      sum += value;
      sumSquares += value * value;
      cross += value * patch[y * size + x]!;
    }
  }
  const n = size * size;
  const variance = sumSquares - (sum * sum) / n;
  return variance > 0 ? cross / Math.sqrt(variance * energy) : -1;
}

/** Every this many pixels each way the whole-card similarity is sampled: the print's shapes are far larger. */
const SIMILARITY_STEP = 3;

/** Normalised correlation of two flattened cards' lightness (1: the same picture under any lamp's brightness). */
export function similarity(a: FlatLightness, b: FlatLightness): number {
  let [sa, sb, saa, sbb, sab, n] = [0, 0, 0, 0, 0, 0];
  for (let y = 0; y < a.height; y += SIMILARITY_STEP) {
    for (let x = 0; x < a.width; x += SIMILARITY_STEP) {
      const va = a.lightness[y * a.width + x]!;
      const vb = b.lightness[y * b.width + x]!;
      sa += va;
      sb += vb;
      saa += va * va;
      sbb += vb * vb;
      sab += va * vb;
      n++;
    }
  }
  const varianceA = saa - (sa * sa) / n;
  const varianceB = sbb - (sb * sb) / n;
  return varianceA > 0 && varianceB > 0 ? (sab - (sa * sb) / n) / Math.sqrt(varianceA * varianceB) : 0;
}
