import { CARD_HEIGHT_MM, CARD_WIDTH_MM } from '../contracts/measurement.ts';
import type { EdgeName, Point } from '../contracts/measurement.ts';
import { homographyFromPoints } from './geometry.ts';
import type { DecodedImage } from './image.ts';

/** Resolution the card is measured at: 1260 × 1760 pixels for the whole card. */
export const FLAT_PX_PER_MM = 20;

/**
 * The upright card at FLAT_PX_PER_MM with `marginPx` of the surroundings on every side, so the outline itself
 * (rounded corners, nicks) can be seen against the background.
 */
export interface FlatCard {
  data: Uint8ClampedArray;
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
 * Offset in `flat.data` of the pixel `depth` pixels in from the card's outermost pixel row or column on `edge`
 * (negative: outside, in the margin), at `along`, the pixel's x on the top and bottom edges or y on the left and right.
 */
export function edgePixel(flat: FlatCard, edge: EdgeName, along: number, depth: number): number {
  const { width, height, marginPx } = flat;
  switch (edge) {
    case 'top':
      return ((marginPx + depth) * width + along) * 3;
    case 'bottom':
      return ((height - marginPx - 1 - depth) * width + along) * 3;
    case 'left':
      return (along * width + marginPx + depth) * 3;
    case 'right':
      return (along * width + width - marginPx - 1 - depth) * 3;
  }
}

/** Warps the quad (source pixels, clockwise from top-left) to the upright card at 20 px/mm, for the annotated picture. */
export function flattenCard(image: DecodedImage, quad: Point[]): DecodedImage {
  const flat = warpCard(image, quad, 0);
  return { data: new Uint8Array(flat.data.buffer, flat.data.byteOffset, flat.data.byteLength), width: flat.width, height: flat.height, channels: 3 };
}

/** Perspective warp (homography, bilinear sampling) of the card quad to the upright card plus a margin. */
export function warpCard(image: DecodedImage, quad: readonly Point[], marginMm: number): FlatCard {
  const pxPerMm = FLAT_PX_PER_MM;
  const marginPx = Math.round(marginMm * pxPerMm);
  const width = CARD_WIDTH_MM * pxPerMm + 2 * marginPx;
  const height = CARD_HEIGHT_MM * pxPerMm + 2 * marginPx;
  const flat: FlatCard = { data: new Uint8ClampedArray(width * height * 3), width, height, pxPerMm, marginPx };
  const corners = [
    { x: mmToPx(flat, 0), y: mmToPx(flat, 0) },
    { x: mmToPx(flat, CARD_WIDTH_MM), y: mmToPx(flat, 0) },
    { x: mmToPx(flat, CARD_WIDTH_MM), y: mmToPx(flat, CARD_HEIGHT_MM) },
    { x: mmToPx(flat, 0), y: mmToPx(flat, CARD_HEIGHT_MM) },
  ];
  const h = homographyFromPoints(corners, quad);
  const [h0, h1, h2, h3, h4, h5, h6, h7, h8] = h as unknown as [number, number, number, number, number, number, number, number, number];
  const source = image.data;
  const sw = image.width;
  const maxX = image.width - 1;
  const maxY = image.height - 1;
  const out = flat.data;
  let o = 0;
  for (let y = 0; y < height; y++) {
    // Numerators and denominator are linear in x along a row: step them instead of recomputing.
    let u = h1 * y + h2;
    let v = h4 * y + h5;
    let w = h7 * y + h8;
    for (let x = 0; x < width; x++, u += h0, v += h3, w += h6, o += 3) {
      let sx = u / w;
      let sy = v / w;
      sx = sx < 0 ? 0 : sx > maxX ? maxX : sx;
      sy = sy < 0 ? 0 : sy > maxY ? maxY : sy;
      let x0 = sx | 0;
      let y0 = sy | 0;
      if (x0 === maxX) x0 = maxX - 1;
      if (y0 === maxY) y0 = maxY - 1;
      const fx = sx - x0;
      const fy = sy - y0;
      const i = (y0 * sw + x0) * 3;
      const j = i + sw * 3;
      const w00 = (1 - fx) * (1 - fy);
      const w10 = fx * (1 - fy);
      const w01 = (1 - fx) * fy;
      const w11 = fx * fy;
      out[o] = source[i]! * w00 + source[i + 3]! * w10 + source[j]! * w01 + source[j + 3]! * w11;
      out[o + 1] = source[i + 1]! * w00 + source[i + 4]! * w10 + source[j + 1]! * w01 + source[j + 4]! * w11;
      out[o + 2] = source[i + 2]! * w00 + source[i + 5]! * w10 + source[j + 2]! * w01 + source[j + 5]! * w11;
    }
  }
  return flat;
}
