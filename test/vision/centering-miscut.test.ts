import { describe, expect, it } from 'vitest';
import { measureSynthetic, noisyCard } from './synthetic-photos.ts';

describe('centering on miscut cards (GRADING.md §1.5: measured, not refused)', () => {
  it('given a card whose print reaches the left edge (no left border), when measured, then the left border is 0 mm and left/right reads 100/0', async () => {
    const { centering } = await measureSynthetic(noisyCard({ borders: { leftMm: 0, rightMm: 6, topMm: 3, bottomMm: 3 } }), 21);
    if (!centering.measurable) throw new Error(`centering not measurable: ${centering.reason}`);
    expect(centering.leftMm).toBe(0);
    expect(Math.abs(centering.rightMm - 6)).toBeLessThanOrEqual(0.15);
    expect(centering.horizontal.ratio).toBe('100/0');
    expect(Math.abs(centering.vertical.worstShare - 50)).toBeLessThanOrEqual(1.5);
  });

  it("given a card back cut off register, its print shifted down so the next card's print shows along the bottom, when measured, then the top border is 0 mm and the bottom is its own border only", async () => {
    const { centering } = await measureSynthetic(
      noisyCard({ borderColor: '#1d3f8f', borders: { leftMm: 3, rightMm: 3, topMm: 0, bottomMm: 6 }, nextCardPrint: { edge: 'bottom', widthMm: 1.5, color: '#6a8fd0' } }),
      23,
    );
    if (!centering.measurable) throw new Error(`centering not measurable: ${centering.reason}`);
    expect(centering.topMm).toBe(0);
    expect(Math.abs(centering.bottomMm - 4.5)).toBeLessThanOrEqual(0.2);
    expect(centering.vertical.worstShare).toBeGreaterThan(75);
  });

  it('given a borderless card, when measured, then it is still not measurable (no side is taken for a miscut)', async () => {
    const { centering } = await measureSynthetic(noisyCard({ borders: null }), 22);
    expect(centering).toEqual({ measurable: false, reason: 'borderless' });
  });
});
