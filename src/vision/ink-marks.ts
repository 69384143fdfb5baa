import type { CardSize } from './card-formats.ts';
import type { Defect } from '../contracts/measurement.ts';
import { round } from './geometry.ts';
import type { DecodedImage } from './image.ts';
import { openMask } from './mask-morphology.ts';
import { growRegion } from './regions.ts';

// Marker and pen marks, dirt: dark marks unlike the print round them. Printed lettering is dark too, but in strokes
// under a millimetre wide; a marker's mark is a blob several millimetres across. So: the pixels clearly darker than
// their neighbourhood and without a print colour of their own, opened by a square wider than any printed stroke
// (what is left is wide), kept where the mark lies on a light, even area of the card (a text box, an attack line:
// dark shapes of the art are left to the art).

/** Marks are looked for inside this inset (the rim is the corners' and edges' business). */
const INSET_MM = 1.5;
/** A pixel is dark against its neighbourhood (the mean over a square this wide) when this much darker than it... */
const NEIGHBOURHOOD_MM = 8;
const DARKER_BY = 45;
/** ...and dark in itself, and of no print colour (marker ink is black or grey; printed symbols are coloured). */
const DARK_LIGHTNESS = 120;
const MAX_CHROMA = 45;
/** Lightness is judged smoothed over this (mm): a marker's scribble, light gaps and all, stays dark; thin print thins out. */
const SMOOTHING_MM = 0.6;
/** Printed strokes (letters, numbers, rules) are narrower than this; the opening removes them, marks stay. */
const STROKE_MM = 1;
/** A mark is at least this long (mm) and covers at least this area (mm²): smaller dark specks are the spots' business. */
const MIN_MARK_MM = 2;
const MIN_MARK_AREA_MM2 = 2;
/** Larger than this is a printed shape (a silhouette, a black box), not a mark. */
const MAX_MARK_MM = 15;
/** The surround (a ring this far round the mark's box) must be light and even: its median at least SURROUND_LIGHTNESS… */
const SURROUND_MM = 1.5;
const SURROUND_LIGHTNESS = 150;
/** …and most of it within this many levels of that median (text in it is allowed, art is not). */
const SURROUND_EVEN_LEVELS = 30;
const SURROUND_EVEN_SHARE = 0.7;

/** Dark marks on the face (the upright picture of a card of `size`), as spots with their size: the longer side of their box. */
export function findInkMarks(face: DecodedImage, size: CardSize): Defect[] {
  // Marks are millimetres across: half the picture's resolution (5 px/mm) sees them and costs a quarter.
  const width = face.width >> 1;
  const height = face.height >> 1;
  const pxPerMm = width / size.widthMm;
  const count = width * height;
  const lightness = new Float32Array(count);
  const candidate = new Uint8Array(count);
  for (let y = 0; y < height; y++) halfRow(face, y, width, lightness, candidate);
  // Both means from one integral image of the lightness.
  const integral = integralImage(lightness, width, height);
  const mean = boxMean(integral, width, height, Math.round((NEIGHBOURHOOD_MM / 2) * pxPerMm));
  // Over a fraction of a millimetre a scribbled mark stays dark while a printed stroke thins out.
  const local = boxMean(integral, width, height, Math.max(1, Math.floor((SMOOTHING_MM / 2) * pxPerMm)));
  const inset = Math.round(INSET_MM * pxPerMm);
  for (let y = 0; y < height; y++) keepDarkInside(candidate, local, mean, width, height, inset, y);
  const wide = openMask(candidate, width, height, Math.round((STROKE_MM / 2) * pxPerMm));

  const visited = new Uint8Array(count);
  const members = new Int32Array(count);
  const defects: Defect[] = [];
  for (let start = 0; start < count; start++) {
    if (wide[start] === 0 || visited[start] === 1) continue;
    const size = growRegion(start, width, height, 8, isSet, wide, visited, members);
    let x0 = width;
    let y0 = height;
    let x1 = 0;
    let y1 = 0;
    for (let k = 0; k < size; k++) {
      const p = members[k]!;
      const x = p % width;
      const y = (p - x) / width;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
    }
    const lengthMm = (Math.max(x1 - x0, y1 - y0) + 1) / pxPerMm;
    if (lengthMm < MIN_MARK_MM || lengthMm > MAX_MARK_MM || size / (pxPerMm * pxPerMm) < MIN_MARK_AREA_MM2) continue;
    if (!onEvenLightSurround(lightness, width, height, x0, y0, x1, y1, Math.round(SURROUND_MM * pxPerMm))) continue;
    defects.push({
      kind: 'spot',
      location: 'surface',
      box: { x: round(x0 / pxPerMm), y: round(y0 / pxPerMm), width: round((x1 - x0 + 1) / pxPerMm), height: round((y1 - y0 + 1) / pxPerMm) },
      sizeMm: round(lengthMm),
    });
  }
  // Ordered by place, so the same photo always lists them alike.
  return defects.sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x).filter((d) => d.box.y + d.box.height <= size.heightMm);
}

const isSet = (pixel: number, mask: Uint8Array) => mask[pixel] === 1;

/**
 * Row y of the candidates keeps only cells inside the inset that are dark (in `local`) and darker than their
 * neighbourhood (`mean`). One call per row: V8 optimises a hot function far better than an inner loop it entered on
 * the stack.
 */
function keepDarkInside(candidate: Uint8Array, local: Float32Array, mean: Float32Array, width: number, height: number, inset: number, y: number): void {
  for (let x = 0; x < width; x++) {
    const p = y * width + x;
    const dark = local[p]! <= DARK_LIGHTNESS && local[p]! <= mean[p]! - DARKER_BY;
    if (x < inset || y < inset || x >= width - inset || y >= height - inset || !dark) candidate[p] = 0;
  }
}

/** One row of the half-resolution grid: each cell's lightness, and whether its colour is no print colour. */
function halfRow(face: DecodedImage, y: number, width: number, lightness: Float32Array, colourless: Uint8Array): void {
  const { data } = face;
  const rowA = 2 * y * face.width * 3;
  const rowB = rowA + face.width * 3;
  for (let x = 0; x < width; x++) {
    const a = rowA + 6 * x;
    const b = rowB + 6 * x;
    const r = (data[a]! + data[a + 3]! + data[b]! + data[b + 3]!) / 4;
    const g = (data[a + 1]! + data[a + 4]! + data[b + 1]! + data[b + 4]!) / 4;
    const bl = (data[a + 2]! + data[a + 5]! + data[b + 2]! + data[b + 5]!) / 4;
    const p = y * width + x;
    lightness[p] = 0.299 * r + 0.587 * g + 0.114 * bl;
    colourless[p] = Math.max(r, g, bl) - Math.min(r, g, bl) <= MAX_CHROMA ? 1 : 0;
  }
}

/** The ring round the box (out to `reach` pixels): its median light enough, and most of it near that median. */
function onEvenLightSurround(lightness: Float32Array, width: number, height: number, x0: number, y0: number, x1: number, y1: number, reach: number): boolean {
  const values: number[] = [];
  for (let y = Math.max(0, y0 - reach); y <= Math.min(height - 1, y1 + reach); y++) {
    for (let x = Math.max(0, x0 - reach); x <= Math.min(width - 1, x1 + reach); x++) {
      if (x >= x0 && x <= x1 && y >= y0 && y <= y1) continue;
      values.push(lightness[y * width + x]!);
    }
  }
  if (values.length === 0) return false;
  values.sort((a, b) => a - b);
  const median = values[values.length >> 1]!;
  const even = values.filter((v) => Math.abs(v - median) <= SURROUND_EVEN_LEVELS).length / values.length;
  return median >= SURROUND_LIGHTNESS && even >= SURROUND_EVEN_SHARE;
}

/** Sums of the values above and left of each corner: (width + 1) × (height + 1), the first row and column 0. */
function integralImage(values: Float32Array, width: number, height: number): Float64Array {
  const integral = new Float64Array((width + 1) * (height + 1));
  for (let y = 0; y < height; y++) integralRow(values, width, y, integral);
  return integral;
}

function integralRow(values: Float32Array, width: number, y: number, integral: Float64Array): void {
  let row = 0;
  for (let x = 0; x < width; x++) {
    row += values[y * width + x]!;
    integral[(y + 1) * (width + 1) + x + 1] = integral[y * (width + 1) + x + 1]! + row;
  }
}

/** Mean over a (2·radius + 1)² square round each pixel (clamped at the borders), from the integral image. */
function boxMean(integral: Float64Array, width: number, height: number, radius: number): Float32Array {
  const out = new Float32Array(width * height);
  // One call per row: V8 optimises a hot function far better than an inner loop it entered on the stack.
  for (let y = 0; y < height; y++) boxMeanRow(integral, width, height, radius, y, out);
  return out;
}

function boxMeanRow(integral: Float64Array, width: number, height: number, radius: number, y: number, out: Float32Array): void {
  const ya = Math.max(0, y - radius);
  const yb = Math.min(height, y + radius + 1);
  for (let x = 0; x < width; x++) {
    const xa = Math.max(0, x - radius);
    const xb = Math.min(width, x + radius + 1);
    const sum = integral[yb * (width + 1) + xb]! - integral[ya * (width + 1) + xb]! - integral[yb * (width + 1) + xa]! + integral[ya * (width + 1) + xa]!;
    out[y * width + x] = sum / ((xb - xa) * (yb - ya));
  }
}
