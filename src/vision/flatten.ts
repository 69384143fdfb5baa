import type { EdgeName, Point } from '../contracts/measurement.ts';
import type { CardSize } from './card-formats.ts';
import { homographyFromPoints } from './geometry.ts';
import type { DecodedImage } from './image.ts';

/**
 * The rim (corners, edges, the outline) is warped at the photo's own resolution, rounded up, within these bounds:
 * finer only interpolates. A 12-MP photo decoded for measuring gives the card about 11.5 px/mm, so 12; GRADING.md
 * asks for about 20, which a photo decoded that small never has. On 12-MP photos (npm run bench:accuracy) nick depth,
 * corner and edge whitening come within 0.1 mm of the drawn sizes, as when decoded larger, for a third less time.
 */
const RIM_PX_PER_MM = { min: 12, max: 20 };

export function rimPxPerMm(sourcePxPerMm: number): number {
  return Math.min(RIM_PX_PER_MM.max, Math.max(RIM_PX_PER_MM.min, Math.ceil(sourcePxPerMm)));
}

/**
 * Resolution of the picture of the card, 630 × 880 for a 63 × 88 mm one, on which the centering strips and the surface are measured and
 * from which the annotated PNG and OCR are made. A 12-MP photo, decoded for measuring, gives the card about
 * 11.5 px/mm, so more would mostly be interpolation: borders read within 0.013 mm of the drawn ones either way
 * (npm run bench:accuracy), OCR reads the lettered test cards as well as at 20 (40/40 fields), and a quarter of
 * the pixels warp four times faster.
 */
export const PICTURE_PX_PER_MM = 10;

/**
 * The upright card at `pxPerMm` with `marginPx` of the surroundings on every side, so the outline itself
 * (rounded corners, nicks) can be seen against the background. `widthMm` × `heightMm` is the card's format.
 */
export interface FlatCard extends CardSize {
  data: Uint8Array;
  width: number;
  height: number;
  pxPerMm: number;
  marginPx: number;
}

/** Pixel index (continuous) of a position in mm on the card. */
export function mmToPx(flat: FlatCard, mm: number): number {
  return mm * flat.pxPerMm + flat.marginPx - 0.5;
}

/**
 * Where the pixel `depth` pixels in from the card's outermost row or column on `edge` (negative: outside, in the
 * margin) lies in `flat.data`, at `along` (its x on the top and bottom edges, its y on the left and right):
 * origin + along × alongStride + depth × depthStride.
 */
export function edgeStrides(flat: FlatCard, edge: EdgeName): { origin: number; alongStride: number; depthStride: number } {
  const { width, height, marginPx } = flat;
  const row = width * 3;
  switch (edge) {
    case 'top':
      return { origin: marginPx * row, alongStride: 3, depthStride: row };
    case 'bottom':
      return { origin: (height - marginPx - 1) * row, alongStride: 3, depthStride: -row };
    case 'left':
      return { origin: marginPx * 3, alongStride: row, depthStride: 3 };
    case 'right':
      return { origin: (width - marginPx - 1) * 3, alongStride: row, depthStride: -3 };
  }
}

/** A rectangle on the card in mm (x0 < x1, y0 < y1); it may reach past the card into the margin. */
export interface RegionMm {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * Perspective warp (homography, bilinear sampling) of the card quad, a card of `size`, to the upright card at
 * `pxPerMm` plus a margin. With `regions`, only those parts are sampled (the rest stays black): measuring reads the rim at full
 * resolution and the face at the picture's, so warping everything at the finer one would be waste.
 */
export function warpCard(image: DecodedImage, quad: readonly Point[], size: CardSize, pxPerMm: number, marginMm = 0, regions?: readonly RegionMm[]): FlatCard {
  const { widthMm, heightMm } = size;
  const marginPx = Math.round(marginMm * pxPerMm);
  const width = Math.round(widthMm * pxPerMm) + 2 * marginPx;
  const height = Math.round(heightMm * pxPerMm) + 2 * marginPx;
  const flat: FlatCard = { data: new Uint8Array(width * height * 3), width, height, pxPerMm, marginPx, widthMm, heightMm };
  const corners = [
    { x: mmToPx(flat, 0), y: mmToPx(flat, 0) },
    { x: mmToPx(flat, widthMm), y: mmToPx(flat, 0) },
    { x: mmToPx(flat, widthMm), y: mmToPx(flat, heightMm) },
    { x: mmToPx(flat, 0), y: mmToPx(flat, heightMm) },
  ];
  const toSource = homographyFromPoints(corners, quad);
  if (regions === undefined) {
    warpRows(image, toSource, flat, 0, 0, width, height);
    return flat;
  }
  // Regions overlap (corners, strips crossing the rim): sample each row span once.
  const spans: Array<Array<[number, number]>> = Array.from({ length: height }, () => []);
  for (const region of regions) {
    const x0 = Math.max(0, Math.floor(mmToPx(flat, region.x0)));
    const x1 = Math.min(width, Math.ceil(mmToPx(flat, region.x1)) + 1);
    const y0 = Math.max(0, Math.floor(mmToPx(flat, region.y0)));
    const y1 = Math.min(height, Math.ceil(mmToPx(flat, region.y1)) + 1);
    for (let y = y0; y < y1; y++) spans[y]!.push([x0, x1]);
  }
  spans.forEach((row, y) => {
    row.sort((a, b) => a[0] - b[0]);
    let [from, to] = row[0] ?? [0, 0];
    for (const [x0, x1] of row.slice(1)) {
      if (x0 <= to) to = Math.max(to, x1);
      else {
        warpRows(image, toSource, flat, from, y, to, y + 1);
        [from, to] = [x0, x1];
      }
    }
    if (to > from) warpRows(image, toSource, flat, from, y, to, y + 1);
  });
  return flat;
}

/** Fills [x0, x1) × [y0, y1) of `flat` from the source through `toSource`, bilinear, clamped at the photo's borders. */
function warpRows(image: DecodedImage, toSource: Float64Array, flat: FlatCard, x0: number, y0: number, x1: number, y1: number): void {
  // One call per row: V8 optimises a hot function far better than an inner loop it entered on the stack.
  for (let y = y0; y < y1; y++) warpRow(image, toSource, flat, x0, x1, y);
}

/** Source positions are computed exactly every this many pixels and linearly in between (off by far less than 0.01 px). */
const EXACT_EVERY = 16;

function warpRow(image: DecodedImage, toSource: Float64Array, flat: FlatCard, x0: number, x1: number, y: number): void {
  const h0 = toSource[0]!;
  const h3 = toSource[3]!;
  const h6 = toSource[6]!;
  const source = image.data;
  const sw = image.width;
  // Fixed point, 8 fractional bits; kept a hair inside the last pixel so its right and lower neighbours exist.
  const maxX = (image.width - 1.001) * 256;
  const maxY = (image.height - 1.001) * 256;
  const out = flat.data;
  // Numerators and denominator are linear in x along a row: step them instead of recomputing.
  let u = h0 * x0 + toSource[1]! * y + toSource[2]!;
  let v = h3 * x0 + toSource[4]! * y + toSource[5]!;
  let w = h6 * x0 + toSource[7]! * y + toSource[8]!;
  let sx = (u / w) * 256;
  let sy = (v / w) * 256;
  let o = (y * flat.width + x0) * 3;
  for (let start = x0; start < x1; start += EXACT_EVERY) {
    const n = Math.min(EXACT_EVERY, x1 - start);
    u += h0 * n;
    v += h3 * n;
    w += h6 * n;
    const ex = (u / w) * 256;
    const ey = (v / w) * 256;
    const dx = (ex - sx) / n;
    const dy = (ey - sy) / n;
    let px = sx;
    let py = sy;
    if (sx >= 0 && sy >= 0 && ex >= 0 && ey >= 0 && sx <= maxX && sy <= maxY && ex <= maxX && ey <= maxY) {
      // The whole run lies inside the photo (positions are linear along it): no clamping needed.
      for (let k = 0; k < n; k++, px += dx, py += dy, o += 3) bilinear(source, sw, px | 0, py | 0, out, o);
    } else {
      for (let k = 0; k < n; k++, px += dx, py += dy, o += 3) {
        bilinear(source, sw, (px < 0 ? 0 : px > maxX ? maxX : px) | 0, (py < 0 ? 0 : py > maxY ? maxY : py) | 0, out, o);
      }
    }
    sx = ex;
    sy = ey;
  }
}

/** Writes at out[o..o+3) the source's RGB at (cx, cy), fixed point with 8 fractional bits, interpolated bilinearly. */
function bilinear(source: Uint8Array, sw: number, cx: number, cy: number, out: Uint8Array, o: number): void {
  const fx = cx & 255;
  const fy = cy & 255;
  const gx = 256 - fx;
  const gy = 256 - fy;
  const i = ((cy >> 8) * sw + (cx >> 8)) * 3;
  const j = i + sw * 3;
  out[o] = ((source[i]! * gx + source[i + 3]! * fx) * gy + (source[j]! * gx + source[j + 3]! * fx) * fy + 32768) >>> 16;
  out[o + 1] = ((source[i + 1]! * gx + source[i + 4]! * fx) * gy + (source[j + 1]! * gx + source[j + 4]! * fx) * fy + 32768) >>> 16;
  out[o + 2] = ((source[i + 2]! * gx + source[i + 5]! * fx) * gy + (source[j + 2]! * gx + source[j + 5]! * fx) * fy + 32768) >>> 16;
}
