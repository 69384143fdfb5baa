import { CARD_HEIGHT_MM, CARD_WIDTH_MM } from '../contracts/measurement.ts';
import type { Defect, SurfaceMeasurement } from '../contracts/measurement.ts';
import type { FlatCard } from './flatten.ts';
import { round } from './geometry.ts';
import { separableMedian } from './median-filter.ts';
import { growRegion } from './regions.ts';

/** The surface is examined at half the flattened resolution (10 px/mm): fine enough for 0.1 mm lines, four times cheaper. */
const SCALE = 2;
/** GRADING.md §1.8: inside a 1.5 mm inset, away from the rim. */
const INSET_MM = 1.5;
/**
 * Local background: medians that remove anything narrower than about their radius and keep the art's edges.
 * Lines (scratches, print lines) are looked for against a fine one, so only truly thin things stand out; spots
 * against a coarse one, so spots up to ~1.5 mm do.
 */
const LINE_MEDIAN_RADIUS_MM = 0.6;
const SPOT_MEDIAN_RADIUS_MM = 1.5;
/** Glare: near-white and unsaturated. */
const GLARE_LIGHTNESS = 250;
const GLARE_CHROMA = 12;
/** Residual thresholds: this many noise deviations, and never below the floor (8-bit levels). */
const NOISE_FACTOR = 5;
const LINE_THRESHOLD_FLOOR = 10;
const SPOT_THRESHOLD_FLOOR = 14;
/** Where the art itself changes fast, a residual must be larger by this many levels per level-per-pixel of slope. */
const SLOPE_FACTOR = 2;
/** Residual noise above this (levels) means a holo or heavily textured face. */
const TEXTURED_NOISE = 4.5;
const MIN_SCRATCH_MM = 1;
const MIN_SCRATCH_TEXTURED_MM = 4;
const MIN_SPOT_MM = 0.3;
/** Long and thin: at least this many times longer than wide. */
const LINE_ELONGATION = 4;
/** Print lines run along an axis (within this many degrees) for at least this share of the face. */
const PRINT_LINE_ANGLE_DEG = 2;
const PRINT_LINE_SHARE = 0.5;
/** A crease shows as a light and a dark line side by side, each at least this long. */
const CREASE_MIN_MM = 15;

export interface SurfaceReport {
  surface: SurfaceMeasurement;
  defects: Defect[];
  /** Share of the face that is glare (photo quality). */
  glareShare: number;
}

/** The card's face at half the flattened resolution: lightness, and which pixels are glare. */
export interface SurfaceGrid {
  lightness: Uint8Array;
  glare: Uint8Array;
  width: number;
  height: number;
  pxPerMm: number;
}

/** A connected stretch of residual: light (positive) or dark (negative). */
interface Blob {
  light: boolean;
  pixels: number;
  /** End points along the main axis, and the box, in mm. */
  a: { x: number; y: number };
  b: { x: number; y: number };
  box: { x0: number; y0: number; x1: number; y1: number };
  lengthMm: number;
  widthMm: number;
  angleDeg: number;
}

/**
 * GRADING.md §1.8: lightness against its local median inside a 1.5 mm inset, glare excluded; connected regions
 * are scratches (long, thin), print lines (long, along an axis), spots (small, compact) or a crease (a light and
 * a dark line side by side). A textured face raises the scratch threshold and is reported so confidence drops.
 */
export function measureSurface(grid: SurfaceGrid): SurfaceReport {
  const { width, height, pxPerMm } = grid;
  const inset = Math.round(INSET_MM * pxPerMm);
  let insetPixels = 0;
  let glarePixels = 0;
  for (let y = inset; y < height - inset; y++) {
    for (let x = inset; x < width - inset; x++) {
      insetPixels++;
      glarePixels += grid.glare[y * width + x]!;
    }
  }
  const coarse = separableMedian(grid.lightness, width, height, Math.round(SPOT_MEDIAN_RADIUS_MM * pxPerMm));
  const slope = slopeOf(coarse, width, height);
  const lineResidual = residualOf(grid, separableMedian(grid.lightness, width, height, Math.round(LINE_MEDIAN_RADIUS_MM * pxPerMm)), inset, slope);
  const spotResidual = residualOf(grid, coarse, inset, slope);
  const noise = lineResidual.noise;
  const textured = noise > TEXTURED_NOISE;

  const lineThreshold = Math.max(LINE_THRESHOLD_FLOOR, NOISE_FACTOR * noise);
  const isLine = (blob: Blob) => blob.lengthMm >= 1 && blob.lengthMm >= LINE_ELONGATION * blob.widthMm;
  const lines = mergeCollinear(
    [true, false].flatMap((light) => findBlobs(lineResidual.values, width, height, lineThreshold, light, pxPerMm)).filter(isLine),
  );
  const spotThreshold = Math.max(SPOT_THRESHOLD_FLOOR, NOISE_FACTOR * spotResidual.noise);
  const compact = [true, false]
    .flatMap((light) => findBlobs(spotResidual.values, width, height, spotThreshold, light, pxPerMm))
    .filter((blob) => blob.lengthMm < 3 * blob.widthMm);
  const defects: Defect[] = [];
  const creased = new Set<Blob>();
  for (const light of lines.filter((line) => line.light && line.lengthMm >= CREASE_MIN_MM)) {
    for (const dark of lines.filter((line) => !line.light && line.lengthMm >= CREASE_MIN_MM && !creased.has(line))) {
      if (angleBetween(light.angleDeg, dark.angleDeg) <= 5 && distanceToLine(centre(dark), light) <= 1.5) {
        creased.add(light).add(dark);
        const box = unionBox(light.box, dark.box);
        const length = Math.max(light.lengthMm, dark.lengthMm);
        defects.push({ kind: 'crease', location: 'surface', box: toBox(box), sizeMm: round(length), lengthMm: round(length), angleDeg: reportedAngle(light.angleDeg) });
        break;
      }
    }
  }
  let scratchLength = 0;
  let printLine = false;
  const minScratch = textured ? MIN_SCRATCH_TEXTURED_MM : MIN_SCRATCH_MM;
  for (const line of lines) {
    if (creased.has(line)) continue;
    const axisAligned = angleBetween(line.angleDeg, 0) <= PRINT_LINE_ANGLE_DEG || angleBetween(line.angleDeg, 90) <= PRINT_LINE_ANGLE_DEG;
    const faceLength = angleBetween(line.angleDeg, 0) <= 45 ? CARD_WIDTH_MM - 2 * INSET_MM : CARD_HEIGHT_MM - 2 * INSET_MM;
    const kind = axisAligned && line.lengthMm >= PRINT_LINE_SHARE * faceLength ? 'print-line' : line.lengthMm >= minScratch ? 'scratch' : null;
    if (kind === null) continue;
    if (kind === 'print-line') printLine = true;
    else scratchLength += round(line.lengthMm);
    defects.push({ kind, location: 'surface', box: toBox(line.box), sizeMm: round(line.lengthMm), lengthMm: round(line.lengthMm), angleDeg: reportedAngle(line.angleDeg) });
  }
  let spotCount = 0;
  for (const blob of compact) {
    const diameter = 2 * Math.sqrt(blob.pixels / Math.PI) / pxPerMm;
    if (diameter < MIN_SPOT_MM) continue;
    spotCount++;
    defects.push({ kind: 'spot', location: 'surface', box: toBox(blob.box), sizeMm: round(diameter) });
  }
  return {
    surface: { scratchLengthMm: round(scratchLength), spotCount, printLine, crease: creased.size > 0, textured },
    defects,
    glareShare: insetPixels === 0 ? 0 : glarePixels / insetPixels,
  };
}

/**
 * Lightness minus its local background inside the inset, glare left out, shrunk towards zero where the art's own
 * slope is steep (an edge of the art is not a defect); `noise` is the robust spread of the residual.
 */
function residualOf(grid: SurfaceGrid, background: Uint8Array, inset: number, slope: Float32Array): { values: Float32Array; noise: number } {
  const { width, height } = grid;
  const values = new Float32Array(width * height);
  const absHistogram = new Uint32Array(256);
  for (let y = inset; y < height - inset; y++) {
    for (let x = inset; x < width - inset; x++) {
      const p = y * width + x;
      if (grid.glare[p] === 1) continue;
      const r = grid.lightness[p]! - background[p]!;
      absHistogram[Math.abs(r)]!++;
      const allowance = SLOPE_FACTOR * slope[p]!;
      values[p] = r > allowance ? r - allowance : r < -allowance ? r + allowance : 0;
    }
  }
  return { values, noise: 1.4826 * histogramMedian(absHistogram) };
}

/** Gradient magnitude of the background, levels per pixel, over ±2 pixels. */
function slopeOf(background: Uint8Array, width: number, height: number): Float32Array {
  const slope = new Float32Array(width * height);
  for (let y = 2; y < height - 2; y++) {
    for (let x = 2; x < width - 2; x++) {
      const p = y * width + x;
      slope[p] = Math.hypot(background[p + 2]! - background[p - 2]!, background[p + 2 * width]! - background[p - 2 * width]!) / 4;
    }
  }
  return slope;
}

/** 2 × 2 means of the card area (margin dropped): lightness, and whether the block is glare. */
export function surfaceGrid(flat: FlatCard): SurfaceGrid {
  const width = Math.floor((flat.width - 2 * flat.marginPx) / SCALE);
  const height = Math.floor((flat.height - 2 * flat.marginPx) / SCALE);
  const lightness = new Uint8Array(width * height);
  const glare = new Uint8Array(width * height);
  const data = flat.data;
  const rowStride = flat.width * 3;
  for (let y = 0; y < height; y++) {
    let i = ((flat.marginPx + y * SCALE) * flat.width + flat.marginPx) * 3;
    for (let x = 0; x < width; x++, i += SCALE * 3) {
      const j = i + rowStride;
      const r = (data[i]! + data[i + 3]! + data[j]! + data[j + 3]!) / 4;
      const g = (data[i + 1]! + data[i + 4]! + data[j + 1]! + data[j + 4]!) / 4;
      const b = (data[i + 2]! + data[i + 5]! + data[j + 2]! + data[j + 5]!) / 4;
      const l = 0.299 * r + 0.587 * g + 0.114 * b;
      const p = y * width + x;
      lightness[p] = Math.round(l);
      glare[p] = l >= GLARE_LIGHTNESS && Math.max(r, g, b) - Math.min(r, g, b) <= GLARE_CHROMA ? 1 : 0;
    }
  }
  return { lightness, glare, width, height, pxPerMm: flat.pxPerMm / SCALE };
}

function histogramMedian(histogram: Uint32Array): number {
  let total = 0;
  for (const count of histogram) total += count;
  let seen = 0;
  for (let v = 0; v < histogram.length; v++) {
    seen += histogram[v]!;
    if (seen * 2 >= total) return v;
  }
  return 0;
}

/**
 * Regions of residual beyond `high` (light when `light`, else dark), grown through 8-neighbours down to half of
 * it (hysteresis), so a faint end of a scratch stays attached without noise starting regions of its own.
 */
function findBlobs(residual: Float32Array, width: number, height: number, high: number, light: boolean, pxPerMm: number): Blob[] {
  const sign = light ? 1 : -1;
  const low = high / 2;
  const visited = new Uint8Array(width * height);
  const members = new Int32Array(width * height);
  const blobs: Blob[] = [];
  const beyondLow = (p: number) => sign * residual[p]! >= low;
  for (let start = 0; start < residual.length; start++) {
    if (visited[start] === 1 || sign * residual[start]! < high) continue;
    const size = growRegion(start, width, height, 8, beyondLow, visited, members);
    if (size >= 3) blobs.push(describeBlob(members.subarray(0, size), width, light, pxPerMm));
  }
  return blobs;
}

/** Main axis by second moments; length as the extent along it, width as area over length. */
function describeBlob(pixels: Int32Array, width: number, light: boolean, pxPerMm: number): Blob {
  let sx = 0;
  let sy = 0;
  for (const p of pixels) {
    sx += p % width;
    sy += Math.floor(p / width);
  }
  const n = pixels.length;
  const mx = sx / n;
  const my = sy / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const p of pixels) {
    const x = p % width;
    const y = Math.floor(p / width);
    sxx += (x - mx) ** 2;
    sxy += (x - mx) * (y - my);
    syy += (y - my) ** 2;
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  const ux = Math.cos(angle);
  const uy = Math.sin(angle);
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of pixels) {
    const t = ((p % width) - mx) * ux + (Math.floor(p / width) - my) * uy;
    lo = Math.min(lo, t);
    hi = Math.max(hi, t);
  }
  // Pixel centres: a run of k pixels along the axis spans k pixel widths.
  const lengthPx = hi - lo + 1;
  const toMm = (v: number) => (v + 0.5) / pxPerMm;
  return {
    light,
    pixels: n,
    a: { x: toMm(mx + lo * ux), y: toMm(my + lo * uy) },
    b: { x: toMm(mx + hi * ux), y: toMm(my + hi * uy) },
    box: { x0: x0 / pxPerMm, y0: y0 / pxPerMm, x1: (x1 + 1) / pxPerMm, y1: (y1 + 1) / pxPerMm },
    lengthMm: lengthPx / pxPerMm,
    widthMm: n / lengthPx / pxPerMm,
    angleDeg: normaliseAngle((angle * 180) / Math.PI),
  };
}

/** Pieces of one line broken by the threshold (a scratch over lighter art) joined again. */
function mergeCollinear(lines: Blob[]): Blob[] {
  const result = [...lines];
  for (let merged = true; merged; ) {
    merged = false;
    outer: for (let i = 0; i < result.length; i++) {
      for (let j = i + 1; j < result.length; j++) {
        const a = result[i]!;
        const b = result[j]!;
        if (a.light !== b.light || angleBetween(a.angleDeg, b.angleDeg) > 5) continue;
        if (distanceToLine(b.a, a) > 0.6 || distanceToLine(b.b, a) > 0.6) continue;
        if (gapAlong(a, b) > 3) continue;
        result.splice(j, 1);
        result[i] = joinLines(a, b);
        merged = true;
        break outer;
      }
    }
  }
  return result;
}

function joinLines(a: Blob, b: Blob): Blob {
  const ends = [a.a, a.b, b.a, b.b];
  let best: [{ x: number; y: number }, { x: number; y: number }] = [a.a, a.b];
  let bestLength = -1;
  for (let i = 0; i < ends.length; i++) {
    for (let j = i + 1; j < ends.length; j++) {
      const length = Math.hypot(ends[i]!.x - ends[j]!.x, ends[i]!.y - ends[j]!.y);
      if (length > bestLength) { bestLength = length; best = [ends[i]!, ends[j]!]; }
    }
  }
  // End points are pixel centres: add one pixel's width back, as for a single blob.
  const pixelMm = a.lengthMm - Math.hypot(a.a.x - a.b.x, a.a.y - a.b.y);
  const lengthMm = bestLength + pixelMm;
  return {
    light: a.light,
    pixels: a.pixels + b.pixels,
    a: best[0],
    b: best[1],
    box: unionBox(a.box, b.box),
    lengthMm,
    widthMm: (a.widthMm * a.lengthMm + b.widthMm * b.lengthMm) / lengthMm,
    angleDeg: normaliseAngle((Math.atan2(best[1].y - best[0].y, best[1].x - best[0].x) * 180) / Math.PI),
  };
}

function gapAlong(a: Blob, b: Blob): number {
  const length = Math.hypot(a.b.x - a.a.x, a.b.y - a.a.y) || 1;
  const ux = (a.b.x - a.a.x) / length;
  const uy = (a.b.y - a.a.y) / length;
  const t1 = (b.a.x - a.a.x) * ux + (b.a.y - a.a.y) * uy;
  const t2 = (b.b.x - a.a.x) * ux + (b.b.y - a.a.y) * uy;
  const lo = Math.min(t1, t2);
  const hi = Math.max(t1, t2);
  return Math.max(0, lo - length, -hi);
}

function distanceToLine(point: { x: number; y: number }, line: Blob): number {
  const dx = line.b.x - line.a.x;
  const dy = line.b.y - line.a.y;
  const length = Math.hypot(dx, dy);
  if (length === 0) return Math.hypot(point.x - line.a.x, point.y - line.a.y);
  return Math.abs((point.x - line.a.x) * dy - (point.y - line.a.y) * dx) / length;
}

function centre(blob: Blob) {
  return { x: (blob.a.x + blob.b.x) / 2, y: (blob.a.y + blob.b.y) / 2 };
}

/** Degrees to 0.1, in [0, 180): 179.97 is reported as 0, not 180. */
function reportedAngle(degrees: number): number {
  const rounded = round(normaliseAngle(degrees), 0.1);
  return rounded >= 180 ? 0 : rounded;
}

/** Degrees in [0, 180). */
function normaliseAngle(degrees: number): number {
  const a = degrees % 180;
  return a < 0 ? a + 180 : a;
}

function angleBetween(a: number, b: number): number {
  const d = Math.abs(normaliseAngle(a) - normaliseAngle(b));
  return Math.min(d, 180 - d);
}

function unionBox(a: Blob['box'], b: Blob['box']): Blob['box'] {
  return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}

function toBox(box: Blob['box']) {
  return { x: round(box.x0), y: round(box.y0), width: round(box.x1 - box.x0), height: round(box.y1 - box.y0) };
}
