import { describe, expect, it } from 'vitest';
import type { SideMeasurement } from '../../src/contracts/measurement.ts';
import { gradeCard } from '../../src/domain/grading/index.ts';
import type { SyntheticCardSpec } from '../../src/vision/index.ts';
import { measureSynthetic } from './synthetic-photos.ts';

// Notebook paper is ruled with thin blue lines (0.2 mm, every 7 mm) about as light as a silver border. The rim's
// profiles start 0.6 mm outside the card and took their own first quarter millimetre for the background: where a
// ruling lay there, it was the "background", and the paper between it and the card read as a whitened rim (2.6-3.1 mm
// of corner whitening on a silver card, graded 7.9) or as the card's start, moving the edge out so the straight
// stretches beside it read as nicks. The background is now read over a band beside the card (background-beside.ts),
// and a line on the paper that the profile leaves again before the card is neither background nor card.

const SILVER = '#b8bcc2';
/** A One Piece card's pale silver-white border, a little greyer than notebook paper. */
const PALE = '#dcdcd6';

const rimDefects = (m: SideMeasurement) => m.defects.filter((d) => d.location !== 'surface');
const lined = (pxPerMm: number, borderColor: string, rotationDeg: number, extra: Partial<SyntheticCardSpec> = {}): SyntheticCardSpec => ({
  pxPerMm,
  borderColor,
  ...extra,
  photo: { surface: 'lined-paper', noise: 4, rotationDeg },
});

describe('a ruling of notebook paper beside the card is not the background the rim is measured against', () => {
  it.each([8, 13.4])('a silver border at %s px/mm, turned 4° (seed 5): no corner whitening or fray, graded at least 8', async (pxPerMm) => {
    const m = await measureSynthetic(lined(pxPerMm, SILVER, 4), 5);
    expect(m.defects.filter((d) => d.kind === 'corner-whitening' || d.kind === 'corner-fray')).toEqual([]);
    for (const corner of m.corners) expect(corner.defectMm).toBeLessThan(0.2);
    expect(gradeCard({ front: m }).overallGrade).toBeGreaterThanOrEqual(8);
  });

  it.each([
    [8, 1, 2],
    [10, 1, 2],
    [10, -1, 3],
  ])('a pale border at %s px/mm, turned %s° (seed %s): no rim defects at all, graded at least 8', async (pxPerMm, rotationDeg, seed) => {
    const m = await measureSynthetic(lined(pxPerMm, PALE, rotationDeg), seed);
    expect(rimDefects(m)).toEqual([]);
    expect(gradeCard({ front: m }).overallGrade).toBeGreaterThanOrEqual(8);
  });

  it.each([
    [SILVER, 13.4, 4, 5],
    [PALE, 8, 1, 2],
  ])('drawn damage on lined paper is still found (%s border at %s px/mm, turned %s°, seed %s)', async (borderColor, pxPerMm, rotationDeg, seed) => {
    const spec = lined(pxPerMm, borderColor, rotationDeg, {
      defects: [
        { kind: 'whitened-corner', corner: 'topLeft', lengthMm: 2 },
        { kind: 'whitened-edge', edge: 'left', atMm: 40, lengthMm: 4 },
        { kind: 'nick', edge: 'right', atMm: 30, depthMm: 0.5, lengthMm: 1 },
      ],
    });
    const m = await measureSynthetic(spec, seed);
    // Whitened stock is the paper's colour here: the corner reads as worn by its depth, whitened or frayed.
    expect(m.corners.find((c) => c.corner === 'topLeft')!.defectMm).toBeGreaterThanOrEqual(0.25);
    const nick = m.defects.find((d) => d.kind === 'edge-nick' && d.location === 'right');
    expect(nick?.depthMm).toBeCloseTo(0.5, 1);
    const whitenedEdge = m.defects.filter((d) => d.location === 'left' && (d.kind === 'edge-whitening' || d.kind === 'edge-nick'));
    expect(whitenedEdge.length).toBeGreaterThan(0);
    for (const d of whitenedEdge) expect(Math.abs(d.box.y + d.box.height / 2 - 40)).toBeLessThan(3);
  });
});
