import { ONE_PHOTO_SURFACE_NOTE } from '../contracts/measurement.ts';
import type { PhotoQuality } from '../contracts/measurement.ts';
import type { FlatCard } from './flatten.ts';
import type { SurfaceGrid } from './surface.ts';
import { round } from './geometry.ts';

/**
 * Blurred: the card's own outline rises from background to card over more than this many source pixels (10-90%),
 * or the variance of the Laplacian is below BLUR_VARIANCE_MIN. The outline is the better judge (every card has
 * one, not every card has fine art), the variance the measure GRADING.md §1.4 names and the report carries.
 */
const EDGE_RISE_MAX_PX = 5;
const BLUR_VARIANCE_MIN = 2;
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

/** Two pixels of the photo are the least a defect needs to show at all: smaller, it is the pixels' own noise. */
export const SMALLEST_VISIBLE_PX = 2;
/**
 * A frayed corner is a change in the shape of a curve, and a photo draws even a good corner's curve only to about
 * two pixels either way (the outline's blur, the die's own tolerance on the radius): wear must depart by twice
 * that before it can be told from how the photo renders a good corner.
 */
export const CORNER_WEAR_VISIBLE_PX = 4;

/**
 * GRADING.md §1.4. Poor quality becomes a hint and a lower confidence; it never changes a measurement.
 * `glareShare` comes from the surface check, which looks at the same pixels.
 */
export function measureQuality(flat: FlatCard, grid: SurfaceGrid, sourcePxPerMm: number, glareShare: number, outlineRiseMm: number): { quality: PhotoQuality; confidenceFactor: number } {
  const blurVariance = laplacianVariance(grid);
  const edgeRisePx = outlineRiseMm * sourcePxPerMm;
  // The face (surface, centering) is read at the picture's resolution and the rim at the photo's own: the coarser
  // is what the report can promise. Two pixels are the least a defect needs to show at all.
  const workingPxPerMm = Math.min(flat.pxPerMm, grid.pxPerMm);
  const smallestDefectMm = Math.max(SMALLEST_VISIBLE_PX / Math.min(sourcePxPerMm, workingPxPerMm), 0.1);

  const subgradeLimits = limitsPerSubgrade(sourcePxPerMm, flat.pxPerMm, grid.pxPerMm);

  const hints: string[] = [];
  let confidenceFactor = 1;
  if (edgeRisePx > EDGE_RISE_MAX_PX || blurVariance < BLUR_VARIANCE_MIN) {
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
      pxPerMm: round(workingPxPerMm),
      smallestDefectMm: round(smallestDefectMm),
      subgradeLimits,
      hints,
    },
    confidenceFactor,
  };
}

type SubgradeLimits = NonNullable<PhotoQuality['subgradeLimits']>;

/**
 * What each subgrade can see at this photo's resolution: the rim (corners, edges) is read at the photo's own pixels,
 * the face (centering, surface) at the picture's; a defect needs two pixels to show, a border's end is found to one.
 * Under SOURCE_PX_PER_MM_MIN (a card small in a 1080p frame) the result says in words what falls below that.
 */
function limitsPerSubgrade(sourcePxPerMm: number, rimPxPerMm: number, facePxPerMm: number): SubgradeLimits {
  const rim = Math.min(sourcePxPerMm, rimPxPerMm);
  const face = Math.min(sourcePxPerMm, facePxPerMm);
  const coarse = sourcePxPerMm < SOURCE_PX_PER_MM_MIN;
  const limit = (mm: number, unseen: (size: string) => string) => {
    const smallestDefectMm = round(Math.max(mm, 0.1));
    return { smallestDefectMm, unseen: coarse ? unseen(`${smallestDefectMm.toFixed(2)} mm`) : null };
  };
  return {
    centering: limit(1 / face, (size) => `border widths only to about ${size}`),
    corners: limit(CORNER_WEAR_VISIBLE_PX / rim, (size) => `corner wear under ${size}`),
    edges: limit(2 / rim, (size) => `edge nicks and whitening under ${size}`),
    // A fold shows as a light face and a dark one side by side (surface.ts): a fold narrower than two pixels puts both in
    // one pixel, where it is a faint line like any stroke of the print (issue 30: the crackled creases of PSA 1 cards in
    // 5 px/mm listing photos), so a crease that fine is named among what the photo cannot show.
    // One photo shows a scratch only where it happened to catch the light; a tilt shot (tilt-shot.ts) lifts this note.
    surface: { ...limit(2 / face, (size) => `scratches, spots and print lines under ${size}, and creases folded narrower than that`), notes: [ONE_PHOTO_SURFACE_NOTE] },
  };
}

/** Variance of the 4-neighbour Laplacian of lightness over the card inside the inset (at the grid's 10 px/mm). */
function laplacianVariance(grid: SurfaceGrid): number {
  const { lightness, width, height, pxPerMm } = grid;
  const inset = Math.round(INSET_MM * pxPerMm);
  const sums = new Float64Array(2);
  // One call per row: V8 optimises a hot function far better than an inner loop it entered on the stack.
  for (let y = inset; y < height - inset; y++) laplacianRow(lightness, width, y * width + inset, (y + 1) * width - inset, sums);
  const n = (height - 2 * inset) * (width - 2 * inset);
  const mean = sums[0]! / n;
  return sums[1]! / n - mean * mean;
}

/** Adds the Laplacians of pixels [from, to) and their squares to sums[0] and sums[1]. */
function laplacianRow(lightness: Uint8Array, width: number, from: number, to: number, sums: Float64Array): void {
  let sum = 0;
  let sumSquares = 0;
  for (let p = from; p < to; p++) {
    const laplacian = lightness[p - 1]! + lightness[p + 1]! + lightness[p - width]! + lightness[p + width]! - 4 * lightness[p]!;
    sum += laplacian;
    sumSquares += laplacian * laplacian;
  }
  sums[0]! += sum;
  sums[1]! += sumSquares;
}
