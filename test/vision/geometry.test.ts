import { describe, expect, it } from 'vitest';
import { fitLineRobust } from '../../src/vision/geometry.ts';

// A card's side as the outline search sees it along a bordered card: most samples on the card's edge, but over a
// stretch of the side the search stops at the border's inner frame, a parallel line a few millimetres inside.

/** x of the fitted line at height y. */
const xAt = (line: { nx: number; ny: number; c: number }, y: number) => (line.c - line.ny * y) / line.nx;

describe('fitting a side robustly', () => {
  it('nearly half the samples on a parallel line 35 px inside and on print between, all along one end, does not tilt the side', () => {
    const xs: number[] = [];
    const ys: number[] = [];
    for (let k = 0; k < 96; k++) {
      const y = 160 + 10 * k;
      // Over the upper half, most samples stop at the frame or at print between it and the edge.
      const upper = k >= 40 && k < 92;
      const stop = !upper || k % 5 === 0 ? 71.2 : k % 5 === 1 ? 74.2 : k % 7 === 0 ? 90 : 106.3;
      const wobble = ((k * 7) % 5) * 0.08 - 0.16;
      xs.push(stop + wobble);
      ys.push(y);
    }
    const line = fitLineRobust(xs, ys, 0.3)!;
    expect(Math.abs(xAt(line, 160) - 71.2)).toBeLessThan(0.3);
    expect(Math.abs(xAt(line, 1110) - 71.2)).toBeLessThan(0.3);
  });

  it('gives the plain fit where every sample is on the line', () => {
    const xs = Array.from({ length: 40 }, (_, k) => 10 + 0.05 * k * 10 + (k % 2 === 0 ? 0.1 : -0.1));
    const ys = Array.from({ length: 40 }, (_, k) => k * 10);
    const line = fitLineRobust(xs, ys, 0.3)!;
    expect(Math.abs(xAt(line, 0) - 10)).toBeLessThan(0.15);
    expect(Math.abs(xAt(line, 390) - (10 + 0.05 * 390))).toBeLessThan(0.15);
  });
});
