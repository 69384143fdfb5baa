import { describe, expect, it } from 'vitest';
import type { Centering } from '../../src/contracts/measurement.ts';
import { measureSynthetic, noisyCard } from './synthetic-photos.ts';

const offCentre = { leftMm: 3.6, rightMm: 2.4, topMm: 2.4, bottomMm: 3.6 };

function measured(centering: Centering) {
  if (!centering.measurable) throw new Error(`centering not measurable: ${centering.reason}`);
  return centering;
}

describe('centering (GRADING.md §1.5)', () => {
  it.each([1, 2, 3])('borders 3.6 / 2.4 mm read 60/40 within ±0.7 points on a flat photo, each border within ±0.1 mm (seed %i)', async (seed) => {
    const centering = measured((await measureSynthetic(noisyCard({ borders: offCentre }), seed)).centering);
    expect(Math.abs(centering.horizontal.worstShare - 60)).toBeLessThanOrEqual(0.7);
    expect(Math.abs(centering.vertical.worstShare - 60)).toBeLessThanOrEqual(0.7);
    expect(centering.horizontal.ratio).toBe('60/40');
    expect(centering.vertical.ratio).toBe('60/40');
    expect(Math.abs(centering.leftMm - 3.6)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(centering.rightMm - 2.4)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(centering.topMm - 2.4)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(centering.bottomMm - 3.6)).toBeLessThanOrEqual(0.1);
    expect(centering.innerFrame.left).toBe(centering.leftMm);
    expect(centering.innerFrame.bottom).toBeCloseTo(88 - centering.bottomMm, 5);
    expect(centering.tilted).toBe(false);
  });

  it.each([
    [4, 8, 0.08],
    [5, -11, 0.06],
  ])('keystoned and rotated, still 60/40 within ±1.5 points and each border within ±0.1 mm (seed %i, %i°)', async (seed, rotationDeg, keystone) => {
    const centering = measured((await measureSynthetic(noisyCard({ borders: offCentre, photo: { rotationDeg, keystone } }), seed)).centering);
    expect(Math.abs(centering.horizontal.worstShare - 60)).toBeLessThanOrEqual(1.5);
    expect(Math.abs(centering.vertical.worstShare - 60)).toBeLessThanOrEqual(1.5);
    for (const [got, want] of [
      [centering.leftMm, 3.6],
      [centering.rightMm, 2.4],
      [centering.topMm, 2.4],
      [centering.bottomMm, 3.6],
    ] as const) {
      expect(Math.abs(got - want)).toBeLessThanOrEqual(0.1);
    }
  });

  it('at 11.5 px/mm (a 12-MP photo decoded at 1344 px) centering and defects still measure within tolerance', async () => {
    const m = await measureSynthetic(
      noisyCard({
        pxPerMm: 11.5,
        borders: offCentre,
        photo: { rotationDeg: 6, keystone: 0.05 },
        defects: [
          { kind: 'nick', edge: 'left', atMm: 50, depthMm: 0.5 },
          { kind: 'scratch', x: 30, y: 40, lengthMm: 15, angleDeg: 30 },
        ],
      }),
      8,
    );
    const centering = measured(m.centering);
    expect(Math.abs(centering.horizontal.worstShare - 60)).toBeLessThanOrEqual(1.5);
    expect(Math.abs(centering.leftMm - 3.6)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(centering.topMm - 2.4)).toBeLessThanOrEqual(0.1);
    expect(m.defects.map((d) => d.kind)).toEqual(['edge-nick', 'scratch']);
    expect(Math.abs(m.defects[0]!.sizeMm - 0.5)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(m.defects[1]!.lengthMm! - 15)).toBeLessThanOrEqual(1.5);
  });

  it('a print turned on the card is flagged as tilted (diamond cut)', async () => {
    const centering = measured((await measureSynthetic(noisyCard({ printTiltDeg: 1 }), 6)).centering);
    expect(centering.tilted).toBe(true);
  });

  it('a borderless card is not measurable, never a made-up ratio', async () => {
    const { centering } = await measureSynthetic(noisyCard({ borders: null }), 7);
    expect(centering).toEqual({ measurable: false, reason: 'borderless' });
  });
});
