import type { RegisteredFrames } from './tilt-register.ts';

// The tilt shot's second stage: how the light moves over each point of the card. A point of print keeps its place
// among its neighbours in every frame, however bright the lamp or the card's sheen: both change a neighbourhood
// together. A scratch, a dent or a fold is a little slope of its own, and catches the lamp in some frames and not
// others: there it stands out from its neighbours far more than it does in the rest.
//
// Per frame, each point is read against its neighbourhood: its difference from the local level, in units of the
// local contrast (the mean distance from that level), which takes out a lamp that brightens the whole neighbourhood
// (a factor) and a sheen laid over it (an offset) alike. Across the frames, a glint is how far the point's brightest
// frame rises above its usual one and its darkest falls below it, beyond what print a pixel or two off would show.

/** The neighbourhood a point is read against: wide beside a scratch or a dent, narrow beside the lamp's sheen. */
const NEIGHBOURHOOD_MM = 2;
/**
 * The local contrast is at least this many levels: a camera's noise on a flat colour, so a flat border's noise is
 * not blown up into glints.
 */
const CONTRAST_FLOOR_LEVELS = 6;
/**
 * How far off the registration may put a frame's point: a card's outline is found to a fraction of a source pixel, a
 * tenth of a millimetre in a 1080p frame, and a corner found a little off tips a side by as much again.
 */
const REGISTRATION_SLACK_MM = 0.2;

export interface ReflectedLight {
  /**
   * Per card pixel: how far the light makes it rise above, and fall below, what it and its neighbours usually show,
   * in levels of lightness.
   */
  glint: Float32Array;
  /** Per card pixel: its usual lightness (the median frame's), in levels, to show the card under what caught the light. */
  usual: Float32Array;
  width: number;
  height: number;
  pxPerMm: number;
}

/** The glint and the usual lightness of every card pixel over the registered frames (at least two). */
export function reflectedLight(frames: RegisteredFrames): ReflectedLight {
  const { width, height, pxPerMm } = frames;
  const count = frames.lightness.length;
  if (count < 2) throw new Error('reflectedLight needs two frames or more');
  const tile = Math.max(4, Math.round(NEIGHBOURHOOD_MM * pxPerMm));
  const levels = frames.lightness.map((lightness) => localLevels(lightness, width, height, tile));
  const size = width * height;
  const brightest = new Float32Array(size);
  const usual = new Float32Array(size);
  const darkest = new Float32Array(size);
  const contrast = new Float32Array(size);
  const usualLightness = new Float32Array(size);
  const relative = new Float64Array(count);
  const raw = new Float64Array(count);
  for (let p = 0; p < size; p++) {
    let contrastSum = 0;
    for (let f = 0; f < count; f++) {
      const local = Math.max(CONTRAST_FLOOR_LEVELS, levels[f]!.contrast[p]!);
      raw[f] = frames.lightness[f]![p]!;
      relative[f] = (raw[f]! - levels[f]!.level[p]!) / local;
      contrastSum += local;
    }
    sortSmall(relative);
    sortSmall(raw);
    // Two frames (a front and one angled photo) have no usual frame to tell a glint's one-way rise by: the darker is.
    usual[p] = count === 2 ? relative[0]! : middleOf(relative);
    brightest[p] = relative[count - 1]!;
    darkest[p] = relative[0]!;
    contrast[p] = contrastSum / count;
    usualLightness[p] = middleOf(raw);
  }
  // A point of print the registration put a pixel or two off in some frame shows there what a neighbour usually
  // shows: its rise is measured above the brightest of its neighbours' usual selves and its fall below the darkest,
  // which print cannot pass. What is left changed with the light: a scratch's glint rises, a dent's bowl rises on the
  // side facing the lamp and falls on the other as the lamp goes round.
  const reach = Math.max(1, Math.round(REGISTRATION_SLACK_MM * pxPerMm));
  const usualHigh = extremeFilter(usual, width, height, reach, Math.max);
  const usualLow = extremeFilter(usual, width, height, reach, Math.min);
  const glint = new Float32Array(size);
  for (let p = 0; p < size; p++) {
    const rise = Math.max(0, brightest[p]! - usualHigh[p]!);
    const fall = Math.max(0, usualLow[p]! - darkest[p]!);
    glint[p] = (rise + fall) * contrast[p]!;
  }
  return { glint, usual: usualLightness, width, height, pxPerMm };
}

/** The largest (or smallest) value within `reach` pixels each way (a square), by rows then columns. */
function extremeFilter(values: Float32Array, width: number, height: number, reach: number, pick: (a: number, b: number) => number): Float32Array {
  const rows = new Float32Array(values.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let best = values[y * width + x]!;
      for (let k = Math.max(0, x - reach); k <= Math.min(width - 1, x + reach); k++) best = pick(best, values[y * width + k]!);
      rows[y * width + x] = best;
    }
  }
  const out = new Float32Array(values.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let best = rows[y * width + x]!;
      for (let k = Math.max(0, y - reach); k <= Math.min(height - 1, y + reach); k++) best = pick(best, rows[k * width + x]!);
      out[y * width + x] = best;
    }
  }
  return out;
}

interface LocalLevels {
  /** Per pixel, the local level and the local contrast (mean distance from it), interpolated between tiles. */
  level: Float32Array;
  contrast: Float32Array;
}

/**
 * The level (mean) and contrast of each tile × tile square, spread bilinearly between the squares' centres. A mean, not
 * a median: a square half border and half art has its median at the step between them, where a camera's noise flips
 * it from one side to the other from frame to frame, and the points beside it would seem to change with the light.
 */
function localLevels(lightness: Float32Array, width: number, height: number, tile: number): LocalLevels {
  const columns = Math.ceil(width / tile);
  const rows = Math.ceil(height / tile);
  const tileLevel = new Float32Array(columns * rows);
  const tileContrast = new Float32Array(columns * rows);
  for (let ty = 0; ty < rows; ty++) {
    for (let tx = 0; tx < columns; tx++) {
      const [x0, x1, y0, y1] = [tx * tile, Math.min(width, (tx + 1) * tile), ty * tile, Math.min(height, (ty + 1) * tile)];
      let sum = 0;
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) sum += lightness[y * width + x]!;
      const n = (x1 - x0) * (y1 - y0);
      const level = sum / n;
      let distance = 0;
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) distance += Math.abs(lightness[y * width + x]! - level);
      tileLevel[ty * columns + tx] = level;
      tileContrast[ty * columns + tx] = distance / n;
    }
  }
  return { level: spread(tileLevel, columns, rows, tile, width, height), contrast: spread(tileContrast, columns, rows, tile, width, height) };
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
