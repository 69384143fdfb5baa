import { describe, expect, it } from 'vitest';
import { measureSynthetic, noisyCard } from './synthetic-photos.ts';

// Holo and full-art faces: foil sparkle and printed stars are small marks much lighter than the print round them.
// A grader reads them as print; the engine must too, and still find a dark mark among them (issue 9).

describe('surface of a holo face', () => {
  it.each([
    [14, 51],
    [10, 54],
    [8, 52],
  ])('at %i px/mm, sparkle and stars are not spots, scratches or a crease (seed %i)', async (pxPerMm, seed) => {
    const m = await measureSynthetic(noisyCard({ holo: true, pxPerMm, photo: { noise: 3 } }), seed);
    expect(m.defects.filter((d) => d.location === 'surface')).toEqual([]);
    expect(m.surface).toMatchObject({ scratchLengthMm: 0, spotCount: 0, printLine: false, crease: false });
  });

  it('a dark spot among the sparkle is still found, where it was drawn, with its size', async () => {
    const m = await measureSynthetic(noisyCard({ holo: true, photo: { noise: 3 }, defects: [{ kind: 'spot', x: 20, y: 30, diameterMm: 1 }] }), 51);
    const surface = m.defects.filter((d) => d.location === 'surface');
    expect(surface).toHaveLength(1);
    const [spot] = surface;
    expect(spot!.kind).toBe('spot');
    expect(Math.abs(spot!.sizeMm - 1)).toBeLessThanOrEqual(0.3);
    expect(Math.hypot(spot!.box.x + spot!.box.width / 2 - 20, spot!.box.y + spot!.box.height / 2 - 30)).toBeLessThanOrEqual(0.5);
  });
});
