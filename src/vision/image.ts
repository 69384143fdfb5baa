/** Decoded pixels: 8-bit sRGB, interleaved RGB, rows top to bottom, already turned upright by EXIF orientation. */
export interface DecodedImage {
  data: Uint8Array;
  width: number;
  height: number;
  channels: 3;
  /** The photo's own size, upright, when it was decoded smaller (DecodeOptions.maxSide). */
  original?: { width: number; height: number };
}

/** Any interleaved RGB raster; coordinates are pixel indices, so pixel (i, j)'s centre is at (i, j). */
export interface RgbRaster {
  data: ArrayLike<number>;
  width: number;
  height: number;
}

/**
 * Bilinear RGB at (x, y), clamped at the image's borders, written into `out` (length ≥ 3).
 * The one sampling routine, so every measurement sees the same interpolated pixels.
 */
export function sampleRgb(image: RgbRaster, x: number, y: number, out: Float64Array): void {
  const maxX = image.width - 1;
  const maxY = image.height - 1;
  const cx = x < 0 ? 0 : x > maxX ? maxX : x;
  const cy = y < 0 ? 0 : y > maxY ? maxY : y;
  const x0 = Math.min(Math.floor(cx), maxX - 1 < 0 ? 0 : maxX - 1);
  const y0 = Math.min(Math.floor(cy), maxY - 1 < 0 ? 0 : maxY - 1);
  const fx = cx - x0;
  const fy = cy - y0;
  const x1 = Math.min(x0 + 1, maxX);
  const y1 = Math.min(y0 + 1, maxY);
  const data = image.data;
  const i00 = (y0 * image.width + x0) * 3;
  const i10 = (y0 * image.width + x1) * 3;
  const i01 = (y1 * image.width + x0) * 3;
  const i11 = (y1 * image.width + x1) * 3;
  const w00 = (1 - fx) * (1 - fy);
  const w10 = fx * (1 - fy);
  const w01 = (1 - fx) * fy;
  const w11 = fx * fy;
  for (let c = 0; c < 3; c++) {
    out[c] = data[i00 + c]! * w00 + data[i10 + c]! * w10 + data[i01 + c]! * w01 + data[i11 + c]! * w11;
  }
}

/** Perceived lightness on the 0..255 scale (Rec. 601 luma). */
export function luma(r: number, g: number, b: number): number {
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

/** Colourfulness: the spread between the strongest and weakest channel. */
export function chroma(r: number, g: number, b: number): number {
  return Math.max(r, g, b) - Math.min(r, g, b);
}

/** The distance between two colours given as [r, g, b] (means of bands and strips). */
export function rgbDistance(a: readonly number[], b: readonly number[]): number {
  return Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
}

export function colourDistance(r1: number, g1: number, b1: number, r2: number, g2: number, b2: number): number {
  const dr = r1 - r2;
  const dg = g1 - g2;
  const db = b1 - b2;
  return Math.sqrt(dr * dr + dg * dg + db * db);
}
