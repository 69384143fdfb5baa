import { describe, expect, it } from 'vitest';
import type { SideMeasurement } from '../../src/contracts/measurement.ts';
import { CARD_HEIGHT_MM, CARD_WIDTH_MM } from '../../src/contracts/measurement.ts';
import { distance } from '../../src/vision/geometry.ts';
import { measureSynthetic } from './synthetic-photos.ts';

// What real photos showed that plain drawn cards did not (../shared/photos/README.md), drawn so the engine is held
// to it without the photos: the card on notebook paper whose rulings run to the photo's edges, a white border on
// white paper, a penny sleeve's outline just outside the card, a dark playmat, a card lying sideways, a small card in
// a 1080p frame, and a miscut card with one border missing.

/** A One Piece card's pale silver-white border: a little greyer than notebook paper, as in the photos. */
const PALE_BORDER = '#dcdcd6';
const YELLOW = '#e8c33a';

function sideShares(m: SideMeasurement): { left: number; top: number } {
  if (!m.centering.measurable) throw new Error(`centering not measured: ${m.centering.reason}`);
  const { horizontal, vertical } = m.centering;
  return {
    left: (100 * horizontal.firstMm) / (horizontal.firstMm + horizontal.secondMm),
    top: (100 * vertical.firstMm) / (vertical.firstMm + vertical.secondMm),
  };
}

/** The quad's long side over its short side, as the card's 88 / 63. */
function longOverShort(m: SideMeasurement): number {
  const [tl, tr, br, bl] = m.quad as [SideMeasurement['quad'][0], SideMeasurement['quad'][0], SideMeasurement['quad'][0], SideMeasurement['quad'][0]];
  const width = (distance(tl, tr) + distance(bl, br)) / 2;
  const height = (distance(tl, bl) + distance(tr, br)) / 2;
  return height / width;
}

describe('real-photo scenes on drawn cards', () => {
  it('notebook rulings running to the photo\'s edges are background: a pale-bordered card on lined paper is found and measured', async () => {
    const m = await measureSynthetic(
      { pxPerMm: 12, borderColor: PALE_BORDER, borders: { leftMm: 3.6, rightMm: 2.4, topMm: 3, bottomMm: 3 }, photo: { surface: 'lined-paper', noise: 3, rotationDeg: 4 } },
      61,
    );
    expect(m.quality.sourcePxPerMm).toBeGreaterThan(11.5);
    expect(m.quality.sourcePxPerMm).toBeLessThan(12.5);
    expect(m.cornerStyle).toBe('rounded');
    // A ruling right under a pale border can hide where the border ends: then that side is not measured, but it is
    // never read as a missing border (a miscut would cap the grade).
    if (m.centering.measurable) {
      const shares = sideShares(m);
      expect(Math.abs(shares.left - 60)).toBeLessThanOrEqual(1.5);
      expect(Math.abs(shares.top - 50)).toBeLessThanOrEqual(1.5);
    } else {
      expect(m.centering.reason).toMatch(/^no border found on the (top|bottom) side$/);
    }
  });

  it('a photo taken in dim light is measured as the same card in ordinary light: the card found, borders read, no corner fray', async () => {
    // Every step in a dim photo is smaller by the same factor as its whites: a pale border's faint edge on white
    // paper falls under the thresholds sized for ordinary light unless the photo is brought up to normal exposure.
    const spec = { pxPerMm: 12, borderColor: PALE_BORDER, borders: { leftMm: 3.6, rightMm: 2.4, topMm: 3, bottomMm: 3 }, photo: { background: '#f2f2ee', noise: 2, rotationDeg: 3 } };
    const dim = await measureSynthetic({ ...spec, photo: { ...spec.photo, light: 0.6 } }, 63);
    expect(dim.quality.sourcePxPerMm).toBeGreaterThan(11.7);
    expect(dim.quality.sourcePxPerMm).toBeLessThan(12.3);
    if (!dim.centering.measurable) throw new Error(dim.centering.reason);
    expect(Math.abs(dim.centering.leftMm - 3.6)).toBeLessThanOrEqual(0.15);
    expect(Math.abs(dim.centering.rightMm - 2.4)).toBeLessThanOrEqual(0.15);
    expect(Math.abs(dim.centering.topMm - 3)).toBeLessThanOrEqual(0.15);
    expect(Math.abs(dim.centering.bottomMm - 3)).toBeLessThanOrEqual(0.15);
    expect(dim.defects.filter((d) => d.kind === 'corner-fray' || d.kind === 'corner-whitening')).toEqual([]);
  });

  it('a played card\'s pale rim in a dim, noisy 1080p frame is border: each border is read from the cut edge, not from where its colour is full', async () => {
    // As a Base Set card's worn yellow rim shows through a sleeve: the border's colour eases in over most of a
    // millimetre from the edge. Where the border began was the gradient's steepest pixel along that ramp, which the
    // photo's noise and a dim exposure moved by half a millimetre (a Pikachu's 41/59 read 35/65).
    const borders = { leftMm: 2.4, rightMm: 3.6, topMm: 3.3, bottomMm: 3.7 };
    const m = await measureSynthetic(
      {
        pxPerMm: 8,
        borderColor: YELLOW,
        borders,
        paleRimMm: 0.8,
        photo: { background: '#f4f4f2', sleeveGapMm: 1.5, cardScale: 0.7, aspect: 16 / 9, light: 0.7, noise: 5, rotationDeg: 1 },
      },
      70,
    );
    if (!m.centering.measurable) throw new Error(m.centering.reason);
    expect(Math.abs(m.centering.leftMm - borders.leftMm)).toBeLessThanOrEqual(0.15);
    expect(Math.abs(m.centering.rightMm - borders.rightMm)).toBeLessThanOrEqual(0.15);
    expect(Math.abs(m.centering.topMm - borders.topMm)).toBeLessThanOrEqual(0.15);
    expect(Math.abs(m.centering.bottomMm - borders.bottomMm)).toBeLessThanOrEqual(0.15);
    expect(Math.abs(sideShares(m).left - 40)).toBeLessThanOrEqual(1.5);
  });

  it('a penny sleeve\'s outline 1.5 mm outside the card is not the card: borders still read to ±0.15 mm', async () => {
    const m = await measureSynthetic(
      { pxPerMm: 8, borderColor: YELLOW, borders: { leftMm: 2.6, rightMm: 3.9, topMm: 3.5, bottomMm: 3.8 }, photo: { background: '#ededea', sleeveGapMm: 1.5, cardScale: 0.7, aspect: 16 / 9, noise: 3, rotationDeg: -2 } },
      62,
    );
    if (!m.centering.measurable) throw new Error(m.centering.reason);
    expect(Math.abs(m.centering.leftMm - 2.6)).toBeLessThanOrEqual(0.15);
    expect(Math.abs(m.centering.rightMm - 3.9)).toBeLessThanOrEqual(0.15);
    expect(Math.abs(m.centering.topMm - 3.5)).toBeLessThanOrEqual(0.15);
    expect(Math.abs(m.centering.bottomMm - 3.8)).toBeLessThanOrEqual(0.15);
  });

  it('a sleeve sitting askew, its empty margin darker than the table, is not the card: borders read true and the corners are not frayed', async () => {
    // As in 1080p frames of sleeved cards: the plastic's margin is a grey band between the table and the card, wider
    // at one end, whose outer side is a step in colour just as the card's own edge is.
    const m = await measureSynthetic(
      {
        pxPerMm: 8,
        borderColor: YELLOW,
        borders: { leftMm: 2.6, rightMm: 3.9, topMm: 3.5, bottomMm: 3.8 },
        photo: { background: '#ededea', sleeveGapMm: 1.5, sleeveTiltDeg: 0.8, sleeveTint: 0.2, cardScale: 0.7, aspect: 16 / 9, noise: 3, rotationDeg: 3 },
      },
      68,
    );
    if (!m.centering.measurable) throw new Error(m.centering.reason);
    expect(Math.abs(m.centering.leftMm - 2.6)).toBeLessThanOrEqual(0.15);
    expect(Math.abs(m.centering.rightMm - 3.9)).toBeLessThanOrEqual(0.15);
    expect(Math.abs(m.centering.topMm - 3.5)).toBeLessThanOrEqual(0.15);
    expect(Math.abs(m.centering.bottomMm - 3.8)).toBeLessThanOrEqual(0.15);
    expect(m.defects.filter((d) => d.kind === 'corner-fray')).toEqual([]);
  });

  it("a lamp's glare across the sleeve is neither damage nor the card's outline: the card is found, its borders read, no surface defect", async () => {
    const m = await measureSynthetic(
      {
        pxPerMm: 8,
        borderColor: YELLOW,
        borders: { leftMm: 3.6, rightMm: 2.4, topMm: 2.4, bottomMm: 3.6 },
        photo: { background: '#e6e4dc', cardScale: 0.55, aspect: 16 / 9, rotationDeg: 2, noise: 3, sleeveGapMm: 1.5, sleeveGlare: 0.7 },
      },
      90,
    );
    expect(Math.abs(m.quality.sourcePxPerMm - 8)).toBeLessThanOrEqual(0.25);
    if (!m.centering.measurable) throw new Error(m.centering.reason);
    expect(Math.abs(m.centering.horizontal.worstShare - 60)).toBeLessThanOrEqual(2);
    expect(m.defects.filter((d) => d.location === 'surface')).toEqual([]);
  });

  it('a card small in a 1080p frame (6 px/mm, a fifth of the photo across) is graded, with the resolution reported', async () => {
    const m = await measureSynthetic({ pxPerMm: 6, borders: { leftMm: 3, rightMm: 3, topMm: 3, bottomMm: 3 }, photo: { cardScale: 0.5, aspect: 16 / 9, noise: 3, surface: 'playmat' } }, 63);
    expect(m.quality.sourcePxPerMm).toBeGreaterThan(5.5);
    expect(m.quality.smallestDefectMm).toBeGreaterThan(0.25);
    const shares = sideShares(m);
    expect(Math.abs(shares.left - 50)).toBeLessThanOrEqual(3);
  });

  it('a card lying sideways is still a card: its long side is its height', async () => {
    const m = await measureSynthetic({ pxPerMm: 10, photo: { aspect: 1.3, cardScale: 0.55, noise: 3, rotationDeg: 90 } }, 64);
    expect(Math.abs(longOverShort(m) - CARD_HEIGHT_MM / CARD_WIDTH_MM)).toBeLessThan(0.05);
  });

  it('a miscut card with its left border missing is measured, not refused: 0 mm on the left, 100/0', async () => {
    const m = await measureSynthetic({ pxPerMm: 10, borderColor: '#1d3f8f', borders: { leftMm: 0, rightMm: 6, topMm: 3, bottomMm: 3 }, photo: { noise: 3, rotationDeg: 8 } }, 65);
    if (!m.centering.measurable) throw new Error(m.centering.reason);
    expect(m.centering.leftMm).toBe(0);
    expect(m.centering.horizontal.worstShare).toBe(100);
  });
});

describe('marks on the surface, not print', () => {
  const lettered = { name: 'Pikachu', number: '58/102' };

  it('a marker\'s 4 mm scribble on a light border is one spot of about its size; the printed name and number are not marks', async () => {
    const spec = {
      pxPerMm: 12,
      borderColor: '#f2f2ee',
      borders: { leftMm: 3, rightMm: 3, topMm: 3, bottomMm: 11 },
      lettering: lettered,
      photo: { background: '#2b2f36', noise: 3 },
    };
    const clean = await measureSynthetic(spec, 66);
    expect(clean.defects.filter((d) => d.kind === 'spot' && d.sizeMm >= 2)).toEqual([]);

    const marked = await measureSynthetic({ ...spec, defects: [{ kind: 'ink-mark', x: 31.5, y: 82, sizeMm: 4 }] }, 66);
    const marks = marked.defects.filter((d) => d.kind === 'spot' && d.sizeMm >= 2);
    expect(marks).toHaveLength(1);
    expect(Math.abs(marks[0]!.sizeMm - 4)).toBeLessThanOrEqual(0.8);
    expect(Math.abs(marks[0]!.box.x + marks[0]!.box.width / 2 - 31.5)).toBeLessThanOrEqual(0.5);
    expect(marked.surface.spotCount).toBeGreaterThan(clean.surface.spotCount);
  });
});
