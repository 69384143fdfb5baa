import { describe, expect, it } from 'vitest';
import { measureSynthetic, noisyCard } from './synthetic-photos.ts';

// A cosmos or reverse holo's foil, a refractor's: ridged lines side by side across the whole face at one angle, each
// catching the light on one face and shaded on the other, so each looks like a fold (a light line with a dark one
// beside it) of a crease's length (issue 30: a PSA 6 scan of such a foil was read as a 56 mm crease and capped at 4).
// A grader reads the pattern as print. (A fold across such a foil is not yet told from it: where the fold crosses the
// ridges, their lines join into one region, read along the ridges.)

const creases = (m: Awaited<ReturnType<typeof measureSynthetic>>) => m.defects.filter((d) => d.kind === 'crease');

describe('a holo foil of ridged lines', () => {
  it.each([
    [12, 61],
    [8, 62],
    [5, 63],
  ])('given the foil drawn at %i px/mm, when measured, then no crease is found (seed %i)', async (pxPerMm, seed) => {
    const m = await measureSynthetic(noisyCard({ holo: 'lines', pxPerMm, photo: { noise: 3 } }), seed);
    expect(creases(m)).toEqual([]);
    expect(m.surface.crease).toBe(false);
  });

  it.each([
    [12, 64],
    [8, 65],
  ])('given a card folded twice, two parallel folds 12 mm apart drawn at %i px/mm, when measured, then both are creases: two folds are not a pattern (seed %i)', async (pxPerMm, seed) => {
    const fold = (y: number) => ({ kind: 'crease' as const, x: 31, y, lengthMm: 40, angleDeg: 30 });
    const m = await measureSynthetic(noisyCard({ pxPerMm, photo: { noise: 3 }, defects: [fold(38), fold(52)] }), seed);
    const found = creases(m);
    expect(found).toHaveLength(2);
    for (const crease of found) expect(Math.abs(crease.angleDeg! - 30)).toBeLessThanOrEqual(5);
  });
});
