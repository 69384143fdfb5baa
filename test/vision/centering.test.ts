import { describe, expect, it } from 'vitest';
import type { Centering } from '../../src/contracts/measurement.ts';
import { measureCentering } from '../../src/vision/centering.ts';
import { Prng } from '../../src/vision/synthetic/prng.ts';
import { measureSynthetic, noisyCard } from './synthetic-photos.ts';

const offCentre = { leftMm: 3.6, rightMm: 2.4, topMm: 2.4, bottomMm: 3.6 };

function measured(centering: Centering) {
  if (!centering.measurable) throw new Error(`centering not measurable: ${centering.reason}`);
  return centering;
}

/** A flattened face 63 × 88 mm at 10 px/mm: a blue border left and right, and print that runs to the top and bottom edges. */
function faceWithSideBordersOnly(leftMm: number, rightMm: number) {
  const pxPerMm = 10;
  const width = 63 * pxPerMm;
  const height = 88 * pxPerMm;
  const data = new Uint8Array(width * height * 3);
  const print = new Prng(5);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const border = x < leftMm * pxPerMm || x >= width - rightMm * pxPerMm;
      data.set(border ? [29, 63, 143] : [print.int(40, 250), print.int(40, 250), print.int(40, 250)], (y * width + x) * 3);
    }
  }
  return { data, width, height, pxPerMm, marginPx: 0, widthMm: 63, heightMm: 88 };
}

describe('centering (GRADING.md §1.5)', () => {
  it('with no border found on two opposite sides, is not measurable, and still gives the axis whose borders were found', () => {
    const centering = measureCentering(faceWithSideBordersOnly(3.6, 2.4));
    expect(centering).toMatchObject({ measurable: false, reason: 'no border found on the top and bottom sides' });
    if (centering.measurable) return;
    expect(centering.vertical).toBeUndefined();
    expect(centering.horizontal!.ratio).toBe('60/40');
    expect(Math.abs(centering.horizontal!.firstMm - 3.6)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(centering.horizontal!.secondMm - 2.4)).toBeLessThanOrEqual(0.1);
  });

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
