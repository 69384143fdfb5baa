import { describe, expect, it } from 'vitest';
import { findNicks } from '../../src/vision/edges.ts';

// A nick is measured against the edge's own course round it, not one straight line for the whole side: photos bow a
// side by a few tenths of a millimetre (the lens, a card not quite flat), and that bow is not a row of long nicks.

const PX_PER_MM = 12;

/** An edge 78 mm long (a card's long side less its corners), one position per pixel, as measureEdge reads it. */
function edge(depthAt: (mm: number) => number): { edgeAt: Float64Array; alongMm: Float64Array } {
  const positions = 78 * PX_PER_MM;
  const alongMm = Float64Array.from({ length: positions }, (_, n) => 5 + (n + 0.5) / PX_PER_MM);
  // A little noise that repeats: the photo's pixels.
  const edgeAt = Float64Array.from(alongMm, (mm, n) => depthAt(mm) + 0.01 * Math.sin(n * 2.1));
  return { edgeAt, alongMm };
}

/** A side bowed inwards at its middle by `bowMm` (a parabola through both ends). */
const bow = (bowMm: number) => (mm: number) => bowMm * (1 - ((mm - 44) / 39) ** 2);
/** A notch `depthMm` deep and 1 mm long at `atMm`. */
const notch = (atMm: number, depthMm: number) => (mm: number) => (Math.abs(mm - atMm) <= 0.5 ? depthMm : 0);

describe('nicks along an edge', () => {
  it('a side bowed by 0.4 mm has no nicks', () => {
    const { edgeAt, alongMm } = edge(bow(0.4));
    expect(findNicks(edgeAt, alongMm, PX_PER_MM, 0.1)).toEqual([]);
  });

  it('a 0.3 mm notch on a bowed side is found at its depth and place', () => {
    const { edgeAt, alongMm } = edge((mm) => bow(0.4)(mm) + notch(30, 0.3)(mm));
    const nicks = findNicks(edgeAt, alongMm, PX_PER_MM, 0.1);
    expect(nicks).toHaveLength(1);
    expect(nicks[0]!.depthMm).toBeGreaterThan(0.25);
    expect(nicks[0]!.depthMm).toBeLessThan(0.35);
    expect(Math.abs(nicks[0]!.atMm - 30)).toBeLessThan(0.2);
  });

  it('a notch shallower than the edge\'s own wander is not a nick', () => {
    const wander = (mm: number) => 0.06 * Math.sin(mm * 9.7);
    const { edgeAt, alongMm } = edge((mm) => wander(mm) + notch(50, 0.12)(mm));
    expect(findNicks(edgeAt, alongMm, PX_PER_MM, 0.1)).toEqual([]);
  });
});
