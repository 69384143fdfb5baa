import type { RegisteredFrames } from './tilt-register.ts';

// The tilt shot's second stage: how the light moves over each point of the card. A point of print keeps its place
// among its neighbours in every frame, however bright the lamp or the card's sheen: both change a neighbourhood
// together. A scratch, a dent or a fold is a little slope of its own, and catches the lamp in some frames and not
// others: there it stands out from its neighbours far more than it does in the rest.
//
// Per frame, each point is read against its neighbourhood: its difference from the local median, in units of the
// local contrast (the mean distance from that median), which takes out a lamp that brightens the whole neighbourhood
// (a factor) and a sheen laid over it (an offset) alike. Across the frames, a glint is how far the point's brightest
// frame rises above its usual one, less how far its darkest falls below it: a point of print the registration missed
// by a fraction of a pixel swings both ways, a glint only up.

/** The neighbourhood a point is read against: wide beside a scratch or a dent, narrow beside the lamp's sheen. */
const NEIGHBOURHOOD_MM = 2;
/**
 * The local contrast is at least this many levels: a camera's noise on a flat colour, so a flat border's noise is
 * not blown up into glints.
 */
const CONTRAST_FLOOR_LEVELS = 6;

export interface ReflectedLight {
  /** Per card pixel: how far it catches the light in some frames more than in its usual one, in levels of lightness. */
  glint: Float32Array;
  /** Per card pixel: its brightest frame less its median one, in levels (the picture of the reflected light). */
  sheen: Float32Array;
  width: number;
  height: number;
  pxPerMm: number;
}

/** The glint and the sheen of every card pixel over the registered frames (at least two). */
export function reflectedLight(frames: RegisteredFrames): ReflectedLight {
  const { width, height, pxPerMm } = frames;
  const count = frames.lightness.length;
  if (count < 2) throw new Error('reflectedLight needs two frames or more');
  const tile = Math.max(4, Math.round(NEIGHBOURHOOD_MM * pxPerMm));
  const levels = frames.lightness.map((lightness) => localLevels(lightness, width, height, tile));
  const glint = new Float32Array(width * height);
  const sheen = new Float32Array(width * height);
  const relative = new Float64Array(count);
  const raw = new Float64Array(count);
  for (let p = 0; p < glint.length; p++) {
    let contrastSum = 0;
    for (let f = 0; f < count; f++) {
      const contrast = Math.max(CONTRAST_FLOOR_LEVELS, levels[f]!.contrast[p]!);
      raw[f] = frames.lightness[f]![p]!;
      relative[f] = (raw[f]! - levels[f]!.median[p]!) / contrast;
      contrastSum += contrast;
    }
    sortSmall(relative);
    sortSmall(raw);
    // Two frames (a front and one angled photo) have no usual frame to tell a glint's one-way rise by: the darker is.
    const usual = count === 2 ? relative[0]! : middleOf(relative);
    const rise = relative[count - 1]! - usual;
    const fall = usual - relative[0]!;
    glint[p] = (rise - fall) * (contrastSum / count);
    sheen[p] = raw[count - 1]! - middleOf(raw);
  }
  return { glint, sheen, width, height, pxPerMm };
}

interface LocalLevels {
  /** Per pixel, the local median and the local contrast (mean distance from it), interpolated between tiles. */
  median: Float32Array;
  contrast: Float32Array;
}

/** The median and contrast of each tile × tile square, spread bilinearly between the squares' centres. */
function localLevels(lightness: Float32Array, width: number, height: number, tile: number): LocalLevels {
  const columns = Math.ceil(width / tile);
  const rows = Math.ceil(height / tile);
  const tileMedian = new Float32Array(columns * rows);
  const tileContrast = new Float32Array(columns * rows);
  const values = new Float32Array(tile * tile);
  for (let ty = 0; ty < rows; ty++) {
    for (let tx = 0; tx < columns; tx++) {
      let n = 0;
      for (let y = ty * tile; y < Math.min(height, (ty + 1) * tile); y++) {
        for (let x = tx * tile; x < Math.min(width, (tx + 1) * tile); x++) values[n++] = lightness[y * width + x]!;
      }
      const part = values.subarray(0, n).sort();
      const median = part[n >> 1]!;
      let distance = 0;
      for (let i = 0; i < n; i++) distance += Math.abs(part[i]! - median);
      tileMedian[ty * columns + tx] = median;
      tileContrast[ty * columns + tx] = distance / n;
    }
  }
  return { median: spread(tileMedian, columns, rows, tile, width, height), contrast: spread(tileContrast, columns, rows, tile, width, height) };
}

/** Bilinear between tile centres, held flat beyond the outer centres. */
function spread(tiles: Float32Array, columns: number, rows: number, tile: number, width: number, height: number): Float32Array {
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const gy = Math.min(rows - 1, Math.max(0, (y + 0.5) / tile - 0.5));
    const y0 = Math.floor(gy);
    const y1 = Math.min(rows - 1, y0 + 1);
    const fy = gy - y0;
    for (let x = 0; x < width; x++) {
      const gx = Math.min(columns - 1, Math.max(0, (x + 0.5) / tile - 0.5));
      const x0 = Math.floor(gx);
      const x1 = Math.min(columns - 1, x0 + 1);
      const fx = gx - x0;
      const top = tiles[y0 * columns + x0]! * (1 - fx) + tiles[y0 * columns + x1]! * fx;
      const bottom = tiles[y1 * columns + x0]! * (1 - fx) + tiles[y1 * columns + x1]! * fx;
      out[y * width + x] = top * (1 - fy) + bottom * fy;
    }
  }
  return out;
}

/** Insertion sort: a handful of frames. */
function sortSmall(values: Float64Array): void {
  for (let i = 1; i < values.length; i++) {
    const value = values[i]!;
    let j = i - 1;
    while (j >= 0 && values[j]! > value) {
      values[j + 1] = values[j]!;
      j--;
    }
    values[j + 1] = value;
  }
}

/** The median of sorted values. */
function middleOf(sorted: Float64Array): number {
  const n = sorted.length;
  return n % 2 === 1 ? sorted[n >> 1]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
}
