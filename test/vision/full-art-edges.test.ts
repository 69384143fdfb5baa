import { describe, expect, it } from 'vitest';
import type { SideMeasurement } from '../../src/contracts/measurement.ts';
import { measureSynthetic, noisyCard } from './synthetic-photos.ts';

// A borderless full-art's print runs to the cut: pale art at the edge with dark strokes of it starting a few tenths
// of a millimetre in (fullArtEdge). On a light table or notebook paper the engine placed the outline half-way to the
// dark strokes and called each one a nick (the One Piece landscape card: six 0.17-0.33 mm "nicks"). A nick is a bite
// out of the card's outline, where the card leaves the background further in; print next to the cut is not one.

const TABLE = '#efefea';
const nicksOf = (m: SideMeasurement) => m.edges.flatMap((edge) => edge.nicks.map((nick) => ({ edge: edge.edge, ...nick })));

describe('edges of a full-art face', () => {
  it.each([
    ['a light table, 14 px/mm', 14, { background: TABLE, rotationDeg: -1 }, 71],
    ['a light table, 10 px/mm', 10, { background: TABLE, rotationDeg: 2 }, 74],
    // Where a ruling runs along an edge within half a millimetre of it, the outline read there wavers between the ruling
    // and the cut (bench notes on card finding): another matter, kept out of this photo.
    ['notebook paper, 14 px/mm', 14, { surface: 'lined-paper' as const, rotationDeg: -2 }, 76],
  ])('on %s, dark print just inside the cut is not a nick', async (_, pxPerMm, photo, seed) => {
    const m = await measureSynthetic(noisyCard({ borders: null, fullArtEdge: true, pxPerMm, photo: { noise: 3, ...photo } }), seed);
    expect(nicksOf(m)).toEqual([]);
    expect(m.defects.filter((d) => d.kind === 'edge-nick')).toEqual([]);
  });

  it('real nicks in such an edge are still found, where they were cut, with their depth', async () => {
    const m = await measureSynthetic(
      noisyCard({
        borders: null,
        fullArtEdge: true,
        photo: { noise: 3, background: TABLE, rotationDeg: 3 },
        defects: [
          { kind: 'nick', edge: 'right', atMm: 40, depthMm: 0.4 },
          { kind: 'nick', edge: 'top', atMm: 30, depthMm: 0.25 },
        ],
      }),
      77,
    );
    const nicks = nicksOf(m).sort((a, b) => a.edge.localeCompare(b.edge));
    expect(nicks.map((nick) => nick.edge)).toEqual(['right', 'top']);
    const [right, top] = nicks;
    expect(Math.abs(right!.depthMm - 0.4)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(right!.atMm - 40)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(top!.depthMm - 0.25)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(top!.atMm - 30)).toBeLessThanOrEqual(0.5);
  });

  it('a 0.5 mm nick at 10 px/mm on such an edge is the only one', async () => {
    const m = await measureSynthetic(
      noisyCard({ borders: null, fullArtEdge: true, pxPerMm: 10, photo: { noise: 3, background: TABLE, rotationDeg: -2 }, defects: [{ kind: 'nick', edge: 'left', atMm: 50, depthMm: 0.5 }] }),
      78,
    );
    const nicks = nicksOf(m);
    expect(nicks).toHaveLength(1);
    expect(nicks[0]).toMatchObject({ edge: 'left' });
    expect(Math.abs(nicks[0]!.depthMm - 0.5)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(nicks[0]!.atMm - 50)).toBeLessThanOrEqual(0.5);
  });
});

describe('edges of a full-art face on a dark playmat', () => {
  // Stretches of dark art (deep purple, wine, navy) run into the cut, as dark as the mat: their lightness is the
  // mat's, so the outline read by lightness lies at the pale art behind them, 0.6-1 mm in, and each stretch read as
  // a nick (9-16 on each card before). Their colour is not the mat's; a bite out of the card shows both the mat's
  // lightness and its colour.
  it.each([
    ['8 px/mm', 8, 1.5, 83],
    ['12 px/mm', 12, -2.5, 84],
  ])('at %s, dark art running into the cut is not a nick', async (_, pxPerMm, rotationDeg, seed) => {
    const m = await measureSynthetic(noisyCard({ borders: null, fullArtEdge: 'dark-at-cut', pxPerMm, photo: { noise: 3, surface: 'playmat', rotationDeg } }), seed);
    expect(nicksOf(m)).toEqual([]);
  });
});
