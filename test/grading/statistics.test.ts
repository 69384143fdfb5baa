import { describe, expect, it } from 'vitest';
import {
  agreementFigures,
  averageRanks,
  bestConstantGuess,
  bootstrapInterval,
  interpolateKnots,
  isotonicBlocks,
  mergeSmallBlocks,
  nonNegativeRidge,
  quantile,
  roundTo,
  spearman,
} from '../../src/domain/grading/statistics.ts';

// The calibration's statistics on examples worked out by hand.

describe('Spearman ρ', () => {
  it('ranks ties by the mean of the ranks they span', () => {
    expect(averageRanks([10, 20, 20, 30])).toEqual([1, 2.5, 2.5, 4]);
    expect(averageRanks([5, 5, 5])).toEqual([2, 2, 2]);
  });

  it('is 1 for any increasing relation and −1 for a decreasing one', () => {
    expect(spearman([1, 2, 3, 4], [1, 4, 9, 100])).toBeCloseTo(1, 12);
    expect(spearman([1, 2, 3, 4], [8, 6, 5, 1])).toBeCloseTo(-1, 12);
  });

  it('with ties: x = 1,2,3,4 against y = 1,2,2,3 gives 0.9487 (ranks 1,2.5,2.5,4: 4.5 / √(5 × 4.5))', () => {
    // x ranks 1..4 (mean 2.5, Σd² = 5); y ranks 1, 2.5, 2.5, 4 (Σd² = 4.5); Σ dx·dy = 2.25 + 0 + 0 + 2.25 = 4.5.
    expect(spearman([1, 2, 3, 4], [1, 2, 2, 3])).toBeCloseTo(4.5 / Math.sqrt(5 * 4.5), 12);
  });

  it('is undefined (null) when one side is constant: a constant guess carries no order', () => {
    expect(spearman([1, 2, 3], [7, 7, 7])).toBeNull();
  });
});

describe('the best constant guess', () => {
  it('is the median, the lower middle value for an even count', () => {
    expect(bestConstantGuess([9, 1, 8, 10, 7])).toBe(8);
    expect(bestConstantGuess([1, 2, 9, 10])).toBe(2);
  });

  it('has no larger mean |Δ| than any other constant', () => {
    const truths = [1, 3, 7, 8, 8, 9, 10];
    const best = agreementFigures(truths.map(() => bestConstantGuess(truths)), truths).meanAbsError;
    for (let c = 1; c <= 10; c += 0.5) expect(best).toBeLessThanOrEqual(agreementFigures(truths.map(() => c), truths).meanAbsError + 1e-12);
  });
});

describe('agreement figures', () => {
  it('count exact within 0.5, within one and two inclusive, and the mean |Δ|', () => {
    // |Δ| = 0.5, 1, 2, 3
    const f = agreementFigures([8.5, 8, 5, 10], [8, 9, 7, 7]);
    expect(f.count).toBe(4);
    expect(f.exact).toBe(0.25);
    expect(f.withinOne).toBe(0.5);
    expect(f.withinTwo).toBe(0.75);
    expect(f.meanAbsError).toBeCloseTo(6.5 / 4, 12);
  });
});

describe('quantiles and knots', () => {
  it('interpolates between order statistics (type 7)', () => {
    expect(quantile([1, 2, 3, 4, 5], 0.1)).toBeCloseTo(1.4, 12);
    expect(quantile([4, 1, 3, 2, 5], 0.5)).toBe(3);
    expect(quantile([1, 2], 0.9)).toBeCloseTo(1.9, 12);
  });

  it('interpolates between knots and stays flat beyond them', () => {
    const knots = [[0, 10], [2, 8], [4, 4]] as const;
    expect(interpolateKnots(knots, -1)).toBe(10);
    expect(interpolateKnots(knots, 1)).toBe(9);
    expect(interpolateKnots(knots, 3)).toBe(6);
    expect(interpolateKnots(knots, 9)).toBe(4);
  });

  it('rounds half away from zero after dropping binary noise', () => {
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(-0.125, 2)).toBe(-0.13);
  });
});

describe('isotonic regression (pool adjacent violators)', () => {
  it('pools the violators of a decreasing fit into their mean', () => {
    // 9 then 10 violates "never rising": pooled to 9.5 at x = 1.5.
    const blocks = isotonicBlocks([1, 2, 3, 4], [9, 10, 6, 2], 'decreasing');
    expect(blocks.map((b) => [b.x, b.y])).toEqual([
      [1.5, 9.5],
      [3, 6],
      [4, 2],
    ]);
  });

  it('gives one value per x and a monotone result on any data', () => {
    const xs = [3, 1, 2, 2, 5, 4, 1];
    const ys = [5, 2, 9, 1, 4, 8, 3];
    const blocks = isotonicBlocks(xs, ys, 'increasing');
    for (let i = 1; i < blocks.length; i++) {
      expect(blocks[i]!.x).toBeGreaterThan(blocks[i - 1]!.x);
      expect(blocks[i]!.y).toBeGreaterThanOrEqual(blocks[i - 1]!.y);
    }
    expect(blocks.reduce((s, b) => s + b.weight, 0)).toBe(xs.length);
  });
});

describe('non-negative ridge regression', () => {
  it('recovers positive slopes and sets a slope that should be negative to zero', () => {
    const rows: number[][] = [];
    const ys: number[] = [];
    for (let i = 0; i < 40; i++) {
      const a = (i * 7) % 11;
      const b = (i * 5) % 13;
      rows.push([a, b]);
      ys.push(1 + 2 * a - 0.5 * b);
    }
    const { weights } = nonNegativeRidge(rows, ys, 0);
    expect(weights[0]).toBeGreaterThan(1.5);
    expect(weights[1]).toBe(0);
  });

  it('is exact least squares without a penalty when no constraint binds', () => {
    const rows = [[0], [1], [2], [3]];
    const fit = nonNegativeRidge(rows, [1, 3, 5, 7], 0);
    expect(fit.weights[0]).toBeCloseTo(2, 9);
    expect(fit.intercept).toBeCloseTo(1, 9);
  });
});

describe('merging small isotonic blocks', () => {
  it('folds a block lighter than the minimum into its lighter neighbour, keeping the sequence monotone', () => {
    const blocks = [
      { x: 0, y: 10, weight: 5 },
      { x: 1, y: 8, weight: 1 },
      { x: 2, y: 7, weight: 3 },
      { x: 3, y: 2, weight: 1 },
    ];
    // x=3 (weight 1) merges into x=2 (its only neighbour): y = (7·3 + 2·1)/4 = 5.75 at x = 2.25;
    // then x=1 (weight 1) merges into the lighter neighbour (weight 4 < 5): y = (8 + 5.75·4)/5 = 6.2 at x = 2.
    expect(mergeSmallBlocks(blocks, 3)).toEqual([
      { x: 0, y: 10, weight: 5 },
      { x: 2, y: 6.2, weight: 5 },
    ]);
  });

  it('leaves blocks heavy enough alone and never merges below one block', () => {
    const blocks = [{ x: 0, y: 9, weight: 4 }, { x: 1, y: 5, weight: 4 }];
    expect(mergeSmallBlocks(blocks, 3)).toEqual(blocks);
    expect(mergeSmallBlocks([{ x: 0, y: 9, weight: 1 }], 3)).toHaveLength(1);
  });
});

describe('bootstrap interval', () => {
  const meanOf = (values: readonly number[]) => (draw: readonly number[]) => draw.reduce((sum, k) => sum + values[k]!, 0) / draw.length;

  it('gives the same interval on every call: its draws are seeded', () => {
    const values = Array.from({ length: 40 }, (_, i) => Math.sin(i * 1.7) * 10);
    expect(bootstrapInterval(values.length, meanOf(values))).toEqual(bootstrapInterval(values.length, meanOf(values)));
    // Another seed draws other resamples: the same interval to within chance, not to the last digit.
    const other = bootstrapInterval(values.length, meanOf(values), { seed: 2 })!;
    expect(other).not.toEqual(bootstrapInterval(values.length, meanOf(values)));
    expect(Math.abs(other.low - bootstrapInterval(values.length, meanOf(values))!.low)).toBeLessThan(0.5);
  });

  it('holds the whole-sample figure, and narrows as the sample grows: a share of 30% from 20 photos and from 500', () => {
    const shareOf = (n: number) => Array.from({ length: n }, (_, i) => (i % 10 < 3 ? 1 : 0));
    const small = bootstrapInterval(20, meanOf(shareOf(20)))!;
    const large = bootstrapInterval(500, meanOf(shareOf(500)))!;
    for (const interval of [small, large]) {
      expect(interval.low).toBeLessThan(0.3);
      expect(interval.high).toBeGreaterThan(0.3);
    }
    // The binomial standard error is √(0.3 · 0.7 / n): a 90% interval of about ±0.17 at 20, ±0.034 at 500.
    expect(small.high - small.low).toBeGreaterThan(0.25);
    expect(large.high - large.low).toBeLessThan(0.08);
  });

  it('of ρ for a relation that keeps its order in every resample is 1 to 1', () => {
    const xs = [1, 2, 3, 4, 5, 6, 7, 8];
    const ys = [2, 3, 5, 7, 11, 13, 17, 19];
    expect(bootstrapInterval(xs.length, (draw) => spearman(draw.map((k) => xs[k]!), draw.map((k) => ys[k]!)))).toEqual({ low: 1, high: 1 });
  });

  it('is null where the figure is undefined on most resamples, or with fewer than two observations', () => {
    expect(bootstrapInterval(10, () => null)).toBeNull();
    expect(bootstrapInterval(1, () => 1)).toBeNull();
  });
});
