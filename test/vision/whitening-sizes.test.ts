import { describe, expect, it } from 'vitest';
import { CORNER_DEFECT, EDGE_WHITENING, interpolate } from '../../src/domain/grading/tables.ts';
import { measureSynthetic, noisyCard } from './synthetic-photos.ts';
import { canSeeWhitening, referenceColour } from '../../src/vision/rim.ts';

// Issue 18: whitening read against the card's own border where it is undamaged, so a corner whitened over
// millimetres reads at its size instead of being measured against a ring it has whitened too. Every size within
// ±20% of what was drawn, on the border colours cards come in; on a white border it cannot be seen, and says so.

const BORDERS = { yellow: '#e8c33a', blue: '#1d3f8f', black: '#1c1c1c' } as const;
const CORNER_SIZES_MM = [0.5, 2, 4, 6];

describe('whitening of any size reads at its size', () => {
  for (const [name, colour] of Object.entries(BORDERS)) {
    it.each(CORNER_SIZES_MM)(`a top-left corner whitened along %s mm of a ${name} border`, async (lengthMm) => {
      const m = await measureSynthetic(noisyCard({ borderColor: colour, defects: [{ kind: 'whitened-corner', corner: 'topLeft', lengthMm }] }), 70 + lengthMm * 2);
      const topLeft = m.corners.find((c) => c.corner === 'topLeft')!;
      expect(Math.abs(topLeft.whitenedMm! - lengthMm)).toBeLessThanOrEqual(0.2 * lengthMm);
      for (const other of m.corners.filter((c) => c.corner !== 'topLeft')) expect(other.whitenedMm).toBe(0);
      // GRADING.md §2: the corner grade follows the worst corner's defect size.
      expect(interpolate(CORNER_DEFECT, topLeft.defectMm)).toBeLessThanOrEqual(interpolate(CORNER_DEFECT, 0.8 * lengthMm));
    });
  }

  it('on a white border whitening is not observable, whatever its size', async () => {
    const m = await measureSynthetic(noisyCard({ borderColor: '#f2f2ee', defects: [{ kind: 'whitened-corner', corner: 'topLeft', lengthMm: 4 }] }), 79);
    for (const corner of m.corners) expect(corner.whitenedMm).toBeNull();
  });

  it.each([
    ['yellow', BORDERS.yellow, 5],
    ['yellow', BORDERS.yellow, 20],
    ['blue', BORDERS.blue, 5],
    ['blue', BORDERS.blue, 20],
  ] as const)('a %s (%s) edge whitened along %s mm', async (_name, colour, lengthMm) => {
    const m = await measureSynthetic(noisyCard({ borderColor: colour, defects: [{ kind: 'whitened-edge', edge: 'left', atMm: 44, lengthMm }] }), 80 + lengthMm);
    const left = m.edges.find((e) => e.edge === 'left')!;
    expect(Math.abs(left.whitenedMm! - lengthMm)).toBeLessThanOrEqual(0.2 * lengthMm);
    expect(interpolate(EDGE_WHITENING, left.whitenedMm!)).toBeLessThan(10);
  });
});

describe('whether a border can show whitening', () => {
  const border = (hex: string) => referenceColour(Number.parseInt(hex.slice(1, 3), 16), Number.parseInt(hex.slice(3, 5), 16), Number.parseInt(hex.slice(5, 7), 16));

  it('an even coloured border can, a white one cannot', () => {
    expect(canSeeWhitening(border('#e8c33a'), 4)).toBe(true);
    expect(canSeeWhitening(border('#1d3f8f'), 4)).toBe(true);
    expect(canSeeWhitening(border('#f2f2ee'), 1)).toBe(false);
  });

  it('a pale patterned border whose sheen varies as much as whitening would stand out cannot', () => {
    // A pearl border at lightness ~195: bare stock could be at most ~60 levels lighter, its pattern varies by 15.
    expect(canSeeWhitening(border('#bec3d8'), 15)).toBe(false);
    expect(canSeeWhitening(border('#bec3d8'), 5)).toBe(true);
  });

  it('a darker border printed with a gradient as uneven still can, up to where print runs to the edge', () => {
    // A gold card back at lightness ~140, 15 levels uneven: stock would be over 100 levels lighter.
    expect(canSeeWhitening(border('#c88c28'), 15)).toBe(true);
    expect(canSeeWhitening(border('#1d3f8f'), 30)).toBe(false);
  });
});
