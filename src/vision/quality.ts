import { CARD_HEIGHT_MM, CARD_WIDTH_MM } from '../contracts/measurement.ts';
import type { PhotoQuality, Point } from '../contracts/measurement.ts';
import type { FlatCard } from './flatten.ts';
import { distance, round } from './geometry.ts';

/** Below this variance of the Laplacian the card is blurred. */
const BLUR_VARIANCE_MIN = 8;
/** More than this share of glare hides defects. */
const GLARE_SHARE_MAX = 0.02;
/** Fewer source pixels per mm than this cannot show the smallest defects that matter. */
const SOURCE_PX_PER_MM_MIN = 10;
const INSET_MM = 1.5;

export const HINTS = {
  blurred: 'The photo is blurred: hold the camera steady and let it focus on the card.',
  glare: 'There is glare on the card: tilt the card or the light so no reflection falls on it.',
  lowResolution: 'The card is small in the photo: move closer so the card fills most of the frame.',
} as const;

/**
 * GRADING.md §1.4. Poor quality becomes a hint and a lower confidence; it never changes a measurement.
 * `glareShare` comes from the surface check, which looks at the same pixels.
 */
export function measureQuality(flat: FlatCard, quad: readonly Point[], glareShare: number): { quality: PhotoQuality; confidenceFactor: number } {
  const [tl, tr, br, bl] = quad as [Point, Point, Point, Point];
  const sourcePxPerMm = ((distance(tl, tr) + distance(bl, br)) / 2 / CARD_WIDTH_MM + (distance(tl, bl) + distance(tr, br)) / 2 / CARD_HEIGHT_MM) / 2;
  const blurVariance = laplacianVariance(flat);
  // Two source pixels are the least a defect needs to show at all.
  const smallestDefectMm = Math.max(2 / Math.min(sourcePxPerMm, flat.pxPerMm), 0.1);

  const hints: string[] = [];
  let confidenceFactor = 1;
  if (blurVariance < BLUR_VARIANCE_MIN) {
    hints.push(HINTS.blurred);
    confidenceFactor *= 0.6;
  }
  if (glareShare > GLARE_SHARE_MAX) {
    hints.push(HINTS.glare);
    confidenceFactor *= Math.max(0.5, 1 - 5 * glareShare);
  }
  if (sourcePxPerMm < SOURCE_PX_PER_MM_MIN) {
    hints.push(HINTS.lowResolution);
    confidenceFactor *= Math.max(0.5, sourcePxPerMm / SOURCE_PX_PER_MM_MIN);
  }
  return {
    quality: {
      blurVariance: round(blurVariance),
      glareShare: round(glareShare, 0.0001),
      sourcePxPerMm: round(sourcePxPerMm),
      pxPerMm: flat.pxPerMm,
      smallestDefectMm: round(smallestDefectMm),
      hints,
    },
    confidenceFactor,
  };
}

/** Variance of the 4-neighbour Laplacian of lightness over the card inside the inset, on every other pixel. */
function laplacianVariance(flat: FlatCard): number {
  const { data, width, marginPx, pxPerMm } = flat;
  const inset = marginPx + Math.round(INSET_MM * pxPerMm);
  const lightAt = (i: number) => 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
  const row = width * 3;
  let sum = 0;
  let sumSquares = 0;
  let n = 0;
  for (let y = inset; y < flat.height - inset; y += 2) {
    for (let x = inset; x < width - inset; x += 2) {
      const i = (y * width + x) * 3;
      const laplacian = lightAt(i - 3) + lightAt(i + 3) + lightAt(i - row) + lightAt(i + row) - 4 * lightAt(i);
      sum += laplacian;
      sumSquares += laplacian * laplacian;
      n++;
    }
  }
  const mean = sum / n;
  return sumSquares / n - mean * mean;
}
