// The small statistics the PSA calibration needs (GRADING.md §2b), pure and deterministic: rank correlation,
// agreement figures against a professional grade, the best constant guess, quantiles, isotonic regression and a
// sign-constrained (non-negative) ridge regression. Written out here rather than pulled from a package: each is a
// few lines, and the calibration's figures must be exactly reproducible from the code in the repository.
import { seededRandom } from '../../seeded-random.ts';

/** Ranks 1..n, ties sharing the mean of the ranks they span (what Spearman's ρ with ties needs). */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value || a.index - b.index);
  const ranks = new Array<number>(values.length);
  let start = 0;
  while (start < order.length) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]!.value === order[start]!.value) end++;
    const rank = (start + end) / 2 + 1;
    for (let k = start; k <= end; k++) ranks[order[k]!.index] = rank;
    start = end + 1;
  }
  return ranks;
}

export function pearson(xs: readonly number[], ys: readonly number[]): number | null {
  if (xs.length !== ys.length) throw new Error('pearson: the two series differ in length');
  const n = xs.length;
  if (n < 2) return null;
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = xs[i]! - mx;
    const dy = ys[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  // A constant series carries no order: its correlation is undefined, not zero.
  if (sxx === 0 || syy === 0) return null;
  return sxy / Math.sqrt(sxx * syy);
}

/** Spearman's ρ: Pearson's correlation of the average ranks, so ties are handled; null when either side is constant. */
export function spearman(xs: readonly number[], ys: readonly number[]): number | null {
  return pearson(averageRanks(xs), averageRanks(ys));
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) throw new Error('mean of nothing');
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** Quantile with linear interpolation between order statistics (R's type 7, numpy's default), p in 0..1. */
export function quantile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('quantile of nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * Math.min(1, Math.max(0, p));
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below]! + (position - below) * (sorted[above]! - sorted[below]!);
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/**
 * The constant guess with the least mean |Δ| against `truths`: a median. With an even count every value between the
 * two middle ones does equally well; the lower middle value is taken, a grade someone could actually give.
 */
export function bestConstantGuess(truths: readonly number[]): number {
  if (truths.length === 0) throw new Error('best constant of nothing');
  const sorted = [...truths].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

export interface AgreementFigures {
  count: number;
  /** Spearman's ρ of estimate against truth; null with fewer than two pairs or a constant side. */
  spearman: number | null;
  /** Share with |Δ| ≤ 0.5 (the same grade, half grades allowed). */
  exact: number;
  withinOne: number;
  withinTwo: number;
  meanAbsError: number;
}

/** How far estimates agree with the professional's grades. A tiny tolerance keeps 0.5 and 1 inclusive despite binary noise. */
export function agreementFigures(estimates: readonly number[], truths: readonly number[]): AgreementFigures {
  if (estimates.length !== truths.length) throw new Error('agreementFigures: the two series differ in length');
  const n = estimates.length;
  const errors = estimates.map((e, i) => Math.abs(e - truths[i]!));
  const share = (limit: number) => (n === 0 ? 0 : errors.filter((e) => e <= limit + 1e-9).length / n);
  return {
    count: n,
    spearman: n < 2 ? null : spearman(estimates, truths),
    exact: share(0.5),
    withinOne: share(1),
    withinTwo: share(2),
    meanAbsError: n === 0 ? 0 : mean(errors),
  };
}

/**
 * Isotonic regression by pool-adjacent-violators: the non-decreasing (or non-increasing) step function of x closest to
 * y in weighted least squares. Returned as its blocks: each block's mean x, its fitted y and its weight.
 */
export function isotonicBlocks(
  xs: readonly number[],
  ys: readonly number[],
  direction: 'increasing' | 'decreasing',
  weights?: readonly number[],
): { x: number; y: number; weight: number }[] {
  const order = xs.map((x, i) => i).sort((a, b) => xs[a]! - xs[b]! || a - b);
  const sign = direction === 'increasing' ? 1 : -1;
  const blocks: { sumX: number; sumY: number; weight: number }[] = [];
  for (const i of order) {
    const w = weights?.[i] ?? 1;
    blocks.push({ sumX: xs[i]! * w, sumY: sign * ys[i]! * w, weight: w });
    // Pool while the last block's mean falls below the one before it (ties in x are pooled too: one x, one y).
    while (blocks.length > 1) {
      const last = blocks[blocks.length - 1]!;
      const before = blocks[blocks.length - 2]!;
      const sameX = before.sumX / before.weight === last.sumX / last.weight;
      if (!sameX && before.sumY / before.weight <= last.sumY / last.weight) break;
      blocks.pop();
      before.sumX += last.sumX;
      before.sumY += last.sumY;
      before.weight += last.weight;
    }
  }
  return blocks.map((b) => ({ x: b.sumX / b.weight, y: (sign * b.sumY) / b.weight, weight: b.weight }));
}

/**
 * Merges every block lighter than `minWeight` into its lighter neighbour (weighted means of x and y), until none is
 * left or one block remains. Merging neighbours of a monotone sequence keeps it monotone (the merged y lies between
 * theirs); it keeps one or two photos at an end of the score from setting the grade of everything beyond them.
 */
export function mergeSmallBlocks(blocks: readonly { x: number; y: number; weight: number }[], minWeight: number): { x: number; y: number; weight: number }[] {
  const merged = blocks.map((b) => ({ ...b }));
  for (;;) {
    if (merged.length <= 1) return merged;
    let lightest = -1;
    for (let i = 0; i < merged.length; i++) if (merged[i]!.weight < minWeight && (lightest < 0 || merged[i]!.weight < merged[lightest]!.weight)) lightest = i;
    if (lightest < 0) return merged;
    const left = merged[lightest - 1];
    const right = merged[lightest + 1];
    const into = !left ? lightest + 1 : !right ? lightest - 1 : left.weight <= right.weight ? lightest - 1 : lightest + 1;
    const a = merged[lightest]!;
    const b = merged[into]!;
    const weight = a.weight + b.weight;
    merged[into] = { x: (a.x * a.weight + b.x * b.weight) / weight, y: (a.y * a.weight + b.y * b.weight) / weight, weight };
    merged.splice(lightest, 1);
  }
}

/** Piecewise-linear through knots sorted by x; flat beyond the ends. Monotone knots give a monotone function. */
export function interpolateKnots(knots: readonly (readonly [number, number])[], x: number): number {
  if (knots.length === 0) throw new Error('no knots');
  const first = knots[0]!;
  const last = knots[knots.length - 1]!;
  if (x <= first[0]) return first[1];
  if (x >= last[0]) return last[1];
  for (let i = 1; i < knots.length; i++) {
    const [x1, y1] = knots[i]!;
    if (x <= x1) {
      const [x0, y0] = knots[i - 1]!;
      return x1 === x0 ? y1 : y0 + ((x - x0) / (x1 - x0)) * (y1 - y0);
    }
  }
  return last[1];
}

/**
 * Ridge regression with every slope constrained to be ≥ 0 (and a free intercept), by cyclic coordinate descent:
 * minimises Σ (y − b − Σ w_j x_j)² + λ Σ w_j². Deterministic (fixed order, fixed sweeps). The sign constraint is what
 * keeps a calibration monotone: a feature that measures wear can only push the wear score up.
 */
export function nonNegativeRidge(rows: readonly (readonly number[])[], ys: readonly number[], lambda: number, sweeps = 500): { intercept: number; weights: number[] } {
  const n = rows.length;
  if (n === 0 || n !== ys.length) throw new Error('nonNegativeRidge: need as many targets as rows, at least one');
  const p = rows[0]!.length;
  const weights = new Array<number>(p).fill(0);
  let intercept = mean(ys);
  const residual = ys.map((y) => y - intercept);
  const columnSquares = Array.from({ length: p }, (_, j) => rows.reduce((s, r) => s + r[j]! * r[j]!, 0));
  for (let sweep = 0; sweep < sweeps; sweep++) {
    let largestStep = 0;
    for (let j = 0; j < p; j++) {
      const denominator = columnSquares[j]! + lambda;
      if (denominator === 0) continue;
      let gradient = 0;
      for (let i = 0; i < n; i++) gradient += rows[i]![j]! * residual[i]!;
      const next = Math.max(0, (gradient + columnSquares[j]! * weights[j]!) / denominator);
      const step = next - weights[j]!;
      if (step !== 0) {
        for (let i = 0; i < n; i++) residual[i]! -= step * rows[i]![j]!;
        weights[j] = next;
        largestStep = Math.max(largestStep, Math.abs(step));
      }
    }
    const shift = mean(residual);
    intercept += shift;
    for (let i = 0; i < n; i++) residual[i]! -= shift;
    if (largestStep < 1e-12 && Math.abs(shift) < 1e-12) break;
  }
  return { intercept, weights };
}

/**
 * A percentile bootstrap interval of a statistic over n paired observations: the statistic recomputed on `draws`
 * resamples of the n indices (drawn with replacement by a seeded generator, so the same call gives the same interval)
 * and the interval between its (1 − level) / 2 and (1 + level) / 2 quantiles. It says how far a figure measured on
 * a few dozen photos could move on another few dozen from the same sources: a change smaller than the interval's
 * width is not yet told from chance. Resamples on which the statistic is undefined (null: a constant side) are skipped;
 * null when fewer than half of them define it.
 */
export function bootstrapInterval(
  n: number,
  statistic: (indices: readonly number[]) => number | null,
  { draws = 2000, level = 0.9, seed = 1 }: { draws?: number; level?: number; seed?: number } = {},
): { low: number; high: number } | null {
  if (n < 2) return null;
  const random = seededRandom(seed);
  const values: number[] = [];
  const indices = new Array<number>(n);
  for (let d = 0; d < draws; d++) {
    for (let i = 0; i < n; i++) indices[i] = Math.floor(random() * n);
    const value = statistic(indices);
    if (value !== null && Number.isFinite(value)) values.push(value);
  }
  if (values.length < draws / 2) return null;
  return { low: quantile(values, (1 - level) / 2), high: quantile(values, (1 + level) / 2) };
}

/** Rounds to a fixed number of decimals, half away from zero after dropping binary noise: same input, same digits. */
export function roundTo(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return (Math.sign(value) * Math.round(Number((Math.abs(value) * scale).toFixed(6)))) / scale;
}
