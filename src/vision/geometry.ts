import { cardPxPerMmOfSize } from '../contracts/measurement.ts';
import { formatOfQuad } from './card-formats.ts';
import type { CardSize } from './card-formats.ts';
import type { Point } from '../contracts/measurement.ts';

/** A line as n·p = c with |n| = 1. */
export interface Line {
  nx: number;
  ny: number;
  c: number;
}

/** Row-major 3×3 projective transform, h[8] = 1. */
export type Homography = Float64Array;

/** Solves the homography taking each `from[i]` to `to[i]` (four point pairs, no three collinear). */
export function homographyFromPoints(from: readonly Point[], to: readonly Point[]): Homography {
  // Eight equations in h0..h7: u = (h0 x + h1 y + h2) / (h6 x + h7 y + 1), v likewise with h3..h5.
  const a: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const { x, y } = from[i]!;
    const { x: u, y: v } = to[i]!;
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  const h = solveLinearSystem(a, 8);
  return Float64Array.of(h[0]!, h[1]!, h[2]!, h[3]!, h[4]!, h[5]!, h[6]!, h[7]!, 1);
}

export function applyHomography(h: Homography, x: number, y: number): Point {
  const w = h[6]! * x + h[7]! * y + h[8]!;
  return { x: (h[0]! * x + h[1]! * y + h[2]!) / w, y: (h[3]! * x + h[4]! * y + h[5]!) / w };
}

/** Gaussian elimination with partial pivoting on an n × (n+1) augmented matrix. */
function solveLinearSystem(a: number[][], n: number): number[] {
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let row = col + 1; row < n; row++) if (Math.abs(a[row]![col]!) > Math.abs(a[pivot]![col]!)) pivot = row;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    const pivotRow = a[col]!;
    const p = pivotRow[col]!;
    if (Math.abs(p) < 1e-12) throw new Error('degenerate point configuration');
    for (let row = 0; row < n; row++) {
      if (row === col) continue;
      const r = a[row]!;
      const factor = r[col]! / p;
      if (factor === 0) continue;
      for (let k = col; k <= n; k++) r[k] = r[k]! - factor * pivotRow[k]!;
    }
  }
  return a.map((row, i) => row[n]! / row[i]!);
}

/**
 * Total-least-squares line through weighted points, made robust by iterated Tukey biweights, so a nick or a
 * stray point does not pull the line. `minScale` is the residual (in the points' units) treated as plain noise.
 * The iterations start from the points the best consensus line passes near, not from all of them: where a third
 * of the points lie on a parallel line (a border's inner frame beside the card's edge), a start from all of them
 * is tilted between the two, and the biweights can settle on that tilted line.
 */
export function fitLineRobust(xs: ArrayLike<number>, ys: ArrayLike<number>, minScale: number, iterations = 6): Line | null {
  const n = xs.length;
  if (n < 2) return null;
  const weights = consensusWeights(xs, ys, minScale);
  let line: Line | null = null;
  for (let iteration = 0; iteration <= iterations; iteration++) {
    line = fitLineWeighted(xs, ys, weights);
    if (line === null) return null;
    const residuals = new Float64Array(n);
    for (let i = 0; i < n; i++) residuals[i] = Math.abs(line.nx * xs[i]! + line.ny * ys[i]! - line.c);
    const scale = Math.max(minScale, 1.4826 * median(residuals.slice()));
    const cutoff = 4.685 * scale;
    for (let i = 0; i < n; i++) {
      const u = residuals[i]! / cutoff;
      weights[i] = u < 1 ? (1 - u * u) ** 2 : 0;
    }
  }
  return line;
}

/** A point counts towards a consensus line within this many times the noise scale of it. */
const CONSENSUS_REACH = 3;

/**
 * 1 for the points near the line, through two of them half the set apart, that most points lie near; 0 for the
 * rest. Deterministic: every such pair is tried, in order (a random sample would give a photo two answers).
 */
function consensusWeights(xs: ArrayLike<number>, ys: ArrayLike<number>, minScale: number): Float64Array {
  const n = xs.length;
  const half = n >> 1;
  const reach = CONSENSUS_REACH * minScale;
  let bestFirst = -1;
  let bestCount = 0;
  let bestSpread = Infinity;
  for (let i = 0; i < n - half; i++) {
    const j = i + half;
    const dx = xs[j]! - xs[i]!;
    const dy = ys[j]! - ys[i]!;
    const length = Math.hypot(dx, dy);
    if (length === 0) continue;
    const nx = -dy / length;
    const ny = dx / length;
    const c = nx * xs[i]! + ny * ys[i]!;
    let count = 0;
    let spread = 0;
    for (let k = 0; k < n; k++) {
      const r = Math.abs(nx * xs[k]! + ny * ys[k]! - c);
      if (r <= reach) {
        count++;
        spread += r;
      }
    }
    if (count > bestCount || (count === bestCount && spread < bestSpread)) {
      bestFirst = i;
      bestCount = count;
      bestSpread = spread;
    }
  }
  const weights = new Float64Array(n).fill(1);
  // Fewer than half the points on any line: no consensus to start from; all of them, as a plain fit would.
  if (bestFirst < 0 || bestCount < half) return weights;
  const i = bestFirst;
  const j = i + half;
  const length = Math.hypot(xs[j]! - xs[i]!, ys[j]! - ys[i]!);
  const nx = -(ys[j]! - ys[i]!) / length;
  const ny = (xs[j]! - xs[i]!) / length;
  const c = nx * xs[i]! + ny * ys[i]!;
  for (let k = 0; k < n; k++) weights[k] = Math.abs(nx * xs[k]! + ny * ys[k]! - c) <= reach ? 1 : 0;
  return weights;
}

function fitLineWeighted(xs: ArrayLike<number>, ys: ArrayLike<number>, weights: Float64Array): Line | null {
  let sw = 0;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < xs.length; i++) {
    const w = weights[i]!;
    sw += w;
    sx += w * xs[i]!;
    sy += w * ys[i]!;
  }
  if (sw <= 0) return null;
  const mx = sx / sw;
  const my = sy / sw;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < xs.length; i++) {
    const w = weights[i]!;
    const dx = xs[i]! - mx;
    const dy = ys[i]! - my;
    sxx += w * dx * dx;
    sxy += w * dx * dy;
    syy += w * dy * dy;
  }
  // The line's direction is the covariance's main eigenvector; its normal is perpendicular to it.
  const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  const nx = -Math.sin(angle);
  const ny = Math.cos(angle);
  return { nx, ny, c: nx * mx + ny * my };
}

export function intersectLines(a: Line, b: Line): Point | null {
  const det = a.nx * b.ny - a.ny * b.nx;
  if (Math.abs(det) < 1e-9) return null;
  return { x: (a.c * b.ny - a.ny * b.c) / det, y: (a.nx * b.c - a.c * b.nx) / det };
}

/** True when the polygon's turns all go the same way (and it is not degenerate). */
export function isConvex(polygon: readonly Point[]): boolean {
  let sign = 0;
  for (let i = 0; i < polygon.length; i++) {
    const a = polygon[i]!;
    const b = polygon[(i + 1) % polygon.length]!;
    const c = polygon[(i + 2) % polygon.length]!;
    const cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x);
    if (Math.abs(cross) < 1e-9) return false;
    const s = Math.sign(cross);
    if (sign === 0) sign = s;
    else if (s !== sign) return false;
  }
  return true;
}

export function polygonArea(polygon: readonly Point[]): number {
  let twice = 0;
  for (let i = 0; i < polygon.length; i++) {
    const a = polygon[i]!;
    const b = polygon[(i + 1) % polygon.length]!;
    twice += a.x * b.y - b.x * a.y;
  }
  return Math.abs(twice) / 2;
}

export function distance(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

/** Side `k` of a quad (corner k to corner k + 1): its ends, unit direction (dx, dy) and unit normal pointing out of the quad. */
export function quadSide(quad: readonly Point[], k: number): { a: Point; b: Point; dx: number; dy: number; nx: number; ny: number } {
  const a = quad[k]!;
  const b = quad[(k + 1) % quad.length]!;
  const centre = { x: quad.reduce((s, p) => s + p.x, 0) / quad.length, y: quad.reduce((s, p) => s + p.y, 0) / quad.length };
  const length = distance(a, b);
  const dx = (b.x - a.x) / length;
  const dy = (b.y - a.y) / length;
  const outwards = ((a.x + b.x) / 2 - centre.x) * dy - ((a.y + b.y) / 2 - centre.y) * dx >= 0;
  return { a, b, dx, dy, nx: outwards ? dy : -dy, ny: outwards ? -dx : dx };
}

/**
 * How many photo pixels a millimetre of the card spans, on average, given its corners (clockwise from top-left) and
 * its size: by default, that of the format its shape says it is (card-formats.ts).
 */
export function cardPxPerMm(quad: readonly Point[], size: CardSize = formatOfQuad(quad)): number {
  const [tl, tr, br, bl] = quad as [Point, Point, Point, Point];
  return cardPxPerMmOfSize((distance(tl, tr) + distance(bl, br)) / 2, (distance(tl, bl) + distance(tr, br)) / 2, size);
}

/** Median of the values (the array is sorted in place). */
export function median(values: Float64Array | Float32Array): number {
  if (values.length === 0) return 0;
  values.sort();
  const mid = values.length >> 1;
  return values.length % 2 === 1 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
}

/** The value below which `share` of the values lie (nearest rank; the array is sorted in place). */
export function quantile(values: Float64Array | Float32Array, share: number): number {
  if (values.length === 0) return 0;
  values.sort();
  return values[Math.min(values.length - 1, Math.floor(share * values.length))]!;
}

/** Rounds for the report: 0.01 by default, so the same pixels always print the same JSON. */
export function round(value: number, step = 0.01): number {
  const rounded = Math.round(value / step) * step;
  // Normalise -0 and float dust (0.30000000000000004) so equal values serialise equally.
  return Number((rounded === 0 ? 0 : rounded).toFixed(Math.max(0, -Math.floor(Math.log10(step) + 1e-9))));
}
