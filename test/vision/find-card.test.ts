import { describe, expect, it } from 'vitest';
import { measureSynthetic, noisyCard } from './synthetic-photos.ts';

const offCentre = { leftMm: 3.6, rightMm: 2.4, topMm: 2.4, bottomMm: 3.6 };

describe('find-card on photos as collectors take them (issue 9)', () => {
  it.each([
    ['lying sideways (landscape: the long side is the height)', 90, 4 / 3, 0.75, 31],
    ['turned 35°', 35, 1, 0.6, 32],
    ['upside down', 180, 0.8, 0.75, 33],
  ])('given a card %s, when measured, then it is found and the border pairs read 60/40', async (_name, rotationDeg, aspect, cardScale, seed) => {
    const m = await measureSynthetic(noisyCard({ borders: offCentre, photo: { rotationDeg, aspect, cardScale } }), seed);
    if (!m.centering.measurable) throw new Error(`centering not measurable: ${m.centering.reason}`);
    expect(Math.abs(m.centering.horizontal.worstShare - 60)).toBeLessThanOrEqual(1.5);
    expect(Math.abs(m.centering.vertical.worstShare - 60)).toBeLessThanOrEqual(1.5);
    expect(m.defects).toEqual([]);
  });

  it('given a card at 6 px/mm in a 16:9 frame, when measured, then it is graded and says per subgrade what it cannot see', async () => {
    const m = await measureSynthetic(noisyCard({ pxPerMm: 6, borders: offCentre, photo: { cardScale: 0.45, aspect: 16 / 9 } }), 34);
    expect(m.quality.sourcePxPerMm).toBeGreaterThan(5.5);
    const limits = m.quality.subgradeLimits!;
    expect(limits.corners.smallestDefectMm).toBeGreaterThan(0.3);
    expect(limits.corners.unseen).toMatch(/^corner wear under 0\.\d\d mm$/);
    expect(limits.edges.unseen).toMatch(/^edge nicks/);
    expect(limits.surface.unseen).toMatch(/^scratches, spots and print lines under/);
    expect(limits.centering.unseen).toMatch(/^border widths only to about/);
    expect(m.confidence).toBeLessThan(0.7);
    if (!m.centering.measurable) throw new Error(`centering not measurable: ${m.centering.reason}`);
    expect(Math.abs(m.centering.horizontal.worstShare - 60)).toBeLessThanOrEqual(3);
  });

  it('given a card at 20 px/mm, when measured, then nothing is said to be unseen', async () => {
    const m = await measureSynthetic(noisyCard({ pxPerMm: 20 }), 35);
    const limits = m.quality.subgradeLimits!;
    expect([limits.centering.unseen, limits.corners.unseen, limits.edges.unseen, limits.surface.unseen]).toEqual([null, null, null, null]);
  });
});
