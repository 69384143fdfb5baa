import { describe, expect, it } from 'vitest';
import { borderUnevenness } from '../../src/vision/edges.ts';
import { canSeeWhitening, referenceColour } from '../../src/vision/rim.ts';

// Whitening is looked for only along an even printed border (GRADING.md §1.6). Full-bleed art that keeps one dark
// colour along half a side is not such a border: its thin light rim is the card's own, not worn stock.

const DARK_PURPLE: [number, number, number] = [70, 30, 90];
const YELLOW: [number, number, number] = [232, 195, 58];

function ringOf(colourAt: (n: number) => [number, number, number], positions: number): Float64Array {
  const ring = new Float64Array(positions * 3);
  for (let n = 0; n < positions; n++) ring.set(colourAt(n), n * 3);
  return ring;
}

describe('whether a side has an even border to whiten', () => {
  const positions = 600;

  it('given art that is dark purple along 60% of the side and many colours along the rest, then whitening is not looked for', () => {
    const ring = ringOf((n) => (n < 360 ? DARK_PURPLE : [(n * 37) % 256, (n * 91) % 256, (n * 53) % 256]), positions);
    expect(canSeeWhitening(referenceColour(...DARK_PURPLE), borderUnevenness(ring, positions))).toBe(false);
  });

  it('given a yellow border with a printed mark over 5% of the side, then whitening is looked for', () => {
    const ring = ringOf((n) => (n >= 300 && n < 330 ? [20, 20, 20] : YELLOW), positions);
    expect(canSeeWhitening(referenceColour(...YELLOW), borderUnevenness(ring, positions))).toBe(true);
  });
});
