import { describe, expect, it } from 'vitest';
import type { SideMeasurement } from '../../src/contracts/measurement.ts';
import { formatOfQuad } from '../../src/vision/card-formats.ts';
import { measureCorners } from '../../src/vision/corners.ts';
import { normaliseExposure } from '../../src/vision/exposure.ts';
import { findCard } from '../../src/vision/find-card.ts';
import { cardPxPerMm } from '../../src/vision/geometry.ts';
import { decodeImage, renderSyntheticCard } from '../../src/vision/index.ts';
import { cornersAround, warpRim } from '../../src/vision/measure-side.ts';
import { backgroundNoise, outlineRiseMm, rimStartMm } from '../../src/vision/rim.ts';
import { MAX_PIXELS, measureSynthetic, noisyCard } from './synthetic-photos.ts';

const rimDefects = (m: SideMeasurement) => m.defects.filter((d) => d.location !== 'surface');

describe('corners (GRADING.md §1.6)', () => {
  it('a 1.0 mm whitened top-left corner: only that corner is flagged, at 1.0 ± 0.2 mm', async () => {
    const m = await measureSynthetic(noisyCard({ borderColor: '#1d3f8f', defects: [{ kind: 'whitened-corner', corner: 'topLeft', lengthMm: 1 }] }), 21);
    const flagged = rimDefects(m);
    expect(flagged).toHaveLength(1);
    expect(flagged[0]).toMatchObject({ kind: 'corner-whitening', location: 'topLeft' });
    expect(Math.abs(flagged[0]!.sizeMm - 1)).toBeLessThanOrEqual(0.2);
    const [topLeft, ...others] = m.corners;
    expect(topLeft!.corner).toBe('topLeft');
    expect(Math.abs(topLeft!.whitenedMm! - 1)).toBeLessThanOrEqual(0.2);
    expect(topLeft!.defectMm).toBe(Math.max(topLeft!.frayMm, topLeft!.whitenedMm!));
    for (const corner of others) expect(corner.defectMm).toBeLessThan(0.15);
  });

  it('a worn corner (larger radius) frays by how far its outline falls inside the 3 mm arc', async () => {
    const m = await measureSynthetic(noisyCard({ defects: [{ kind: 'worn-corner', corner: 'bottomRight', radiusMm: 4.5 }] }), 22);
    const bottomRight = m.corners.find((c) => c.corner === 'bottomRight')!;
    // A 4.5 mm arc lies (4.5 - 3)(√2 - 1) = 0.62 mm inside the 3 mm arc at the corner's middle.
    expect(Math.abs(bottomRight.frayMm - 0.62)).toBeLessThanOrEqual(0.1);
    expect(rimDefects(m).map((d) => [d.kind, d.location])).toEqual([['corner-fray', 'bottomRight']]);
  });

  describe('wear at the very edge of what the photo shows', () => {
    // At 13.4 px/mm (a 12-MP phone photo decoded for grading) fray becomes visible at 4 photo pixels, 0.30 mm. A
    // 3.8 mm arc where the card's is 3 mm falls (3.8 - 3)(√2 - 1) = 0.33 mm inside it: just past that size. A ragged
    // cut makes the photo's outline waver by some 0.03-0.06 mm next to every corner (as a holo border's glints against
    // light paper do in a real photo, where one such corner was called frayed turned one way and clean the other).
    const fray = (m: SideMeasurement) => m.defects.filter((d) => d.kind === 'corner-fray').map((d) => d.location);
    const card = (radiusMm: number, edgeRoughnessMm?: number) => ({
      pxPerMm: 13.4,
      borderColor: '#e8c33a',
      ...(edgeRoughnessMm === undefined ? {} : { edgeRoughnessMm }),
      defects: [{ kind: 'worn-corner' as const, corner: 'topLeft' as const, radiusMm }],
      photo: { background: '#2b2f36', noise: 3, rotationDeg: 2 },
    });

    it('on a clean cut, 0.33 mm of wear is called fray', async () => {
      const m = await measureSynthetic(card(3.8), 1);
      expect(Math.abs(m.corners[0]!.frayMm - 0.33)).toBeLessThanOrEqual(0.05);
      expect(fray(m)).toEqual(['topLeft']);
    });

    it.each([1, 2])('on a ragged cut whose outline wavers as much, the same 0.33 mm is measured but not called fray (seed %i)', async (seed) => {
      const m = await measureSynthetic(card(3.8, 0.15), seed);
      expect(Math.abs(m.corners[0]!.frayMm - 0.33)).toBeLessThanOrEqual(0.05);
      expect(fray(m)).toEqual([]);
    });

    it('on the ragged cut, clear wear (0.62 mm) is still called fray, at that corner only', async () => {
      const m = await measureSynthetic(card(4.5, 0.15), 1);
      expect(Math.abs(m.corners[0]!.frayMm - 0.62)).toBeLessThanOrEqual(0.1);
      expect(fray(m)).toEqual(['topLeft']);
    });
  });

  it('square corners are recognised and not counted as fray', async () => {
    const m = await measureSynthetic(noisyCard({ cornerRadiusMm: 0 }), 23);
    expect(m.cornerStyle).toBe('square');
    for (const corner of m.corners) expect(corner.frayMm).toBeLessThan(0.15);
    expect(rimDefects(m)).toEqual([]);
  });

  it.each([1.5, 2])('a square-cut card with all four corners worn round to %s mm: each corner is judged against the square die cut, so all four are worn', async (radiusMm) => {
    // Issue 30: four equally worn corners are still worn. Fitted from the card itself, their arc looked like the
    // card's own cut and none read as fray.
    const worn = (['topLeft', 'topRight', 'bottomRight', 'bottomLeft'] as const).map((corner) => ({ kind: 'worn-corner' as const, corner, radiusMm }));
    const m = await measureSynthetic(noisyCard({ cornerRadiusMm: 0, defects: worn }), 26);
    expect(m.cornerStyle).toBe('square');
    // A radius-r arc lies (√2 − 1)·r inside a square corner along its diagonal, and never more than r from its sides.
    for (const corner of m.corners) {
      expect(corner.frayMm).toBeGreaterThanOrEqual((Math.SQRT2 - 1) * radiusMm - 0.1);
      expect(corner.frayMm).toBeLessThanOrEqual(radiusMm);
    }
    expect(m.defects.filter((d) => d.kind === 'corner-fray')).toHaveLength(4);
  });

  it('on a white border whitening is not observable, and says so', async () => {
    const m = await measureSynthetic(noisyCard({ borderColor: '#f2f2ee', defects: [{ kind: 'whitened-corner', corner: 'topLeft', lengthMm: 1 }] }), 24);
    expect(m.cornerStyle).toBe('rounded');
    for (const corner of m.corners) expect(corner.whitenedMm).toBeNull();
    for (const edge of m.edges) expect(edge.whitenedMm).toBeNull();
    expect(rimDefects(m)).toEqual([]);
  });
});

describe('corners read round the outline (measure-side.ts)', () => {
  it('are the mean of the readings from the outline and from it moved half a pixel each way, drawn at those means', async () => {
    const spec = noisyCard({ pxPerMm: 9, borderColor: '#1d3f8f', defects: [{ kind: 'whitened-corner', corner: 'topLeft', lengthMm: 1 }, { kind: 'worn-corner', corner: 'bottomRight', radiusMm: 4.5 }] });
    const image = normaliseExposure(await decodeImage(await renderSyntheticCard(spec, 23), { maxPixels: MAX_PIXELS }));
    const quad = findCard(image);
    const format = formatOfQuad(quad);
    const pxPerMm = cardPxPerMm(quad, format);
    const rim = warpRim(image, quad, format, pxPerMm);
    const context = { rim, rimStart: rimStartMm(outlineRiseMm(rim)), noise: backgroundNoise(rim) };
    const around = cornersAround(image, quad, format, pxPerMm, context);
    const single = (dx: number, dy: number) => {
      const moved = quad.map((p) => ({ x: p.x + dx, y: p.y + dy }));
      return measureCorners([warpRim(image, moved, format, pxPerMm)], context.rimStart, context.noise, pxPerMm, format.dieCutRadiiMm);
    };
    const readings = [single(0, 0), single(0.5, 0), single(-0.5, 0), single(0, 0.5), single(0, -0.5)];
    around.corners.forEach((corner, k) => {
      const mean = (pick: (r: (typeof readings)[number]) => number) => readings.reduce((sum, r) => sum + pick(r), 0) / readings.length;
      expect(corner.frayMm).toBeCloseTo(mean((r) => r.corners[k]!.frayMm), 2);
      expect(corner.whitenedMm!).toBeCloseTo(mean((r) => r.corners[k]!.whitenedMm!), 2);
    });
    // The whitened and the worn corner are drawn, each at its mean size; the clean corners are not.
    const drawn = around.defects.map((d) => [d.kind, d.location, d.sizeMm]);
    const topLeft = around.corners.find((c) => c.corner === 'topLeft')!;
    const bottomRight = around.corners.find((c) => c.corner === 'bottomRight')!;
    expect(drawn).toEqual([
      ['corner-whitening', 'topLeft', topLeft.whitenedMm],
      ['corner-fray', 'bottomRight', bottomRight.frayMm],
    ]);
    expect(Math.abs(topLeft.whitenedMm! - 1)).toBeLessThanOrEqual(0.25);
    expect(Math.abs(bottomRight.frayMm - 0.62)).toBeLessThanOrEqual(0.12);
  });
});

describe('edges (GRADING.md §1.7)', () => {
  it('a 0.5 mm nick gives exactly one nick, 0.5 ± 0.1 mm deep, where it is', async () => {
    const m = await measureSynthetic(noisyCard({ photo: { rotationDeg: 3 }, defects: [{ kind: 'nick', edge: 'right', atMm: 40, depthMm: 0.5 }] }), 25);
    const nicks = m.edges.flatMap((edge) => edge.nicks.map((nick) => ({ edge: edge.edge, ...nick })));
    expect(nicks).toHaveLength(1);
    expect(nicks[0]!.edge).toBe('right');
    expect(Math.abs(nicks[0]!.depthMm - 0.5)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(nicks[0]!.atMm - 40)).toBeLessThanOrEqual(0.5);
    expect(rimDefects(m).map((d) => [d.kind, d.location])).toEqual([['edge-nick', 'right']]);
  });

  it('whitening along an edge is measured as its length', async () => {
    const m = await measureSynthetic(noisyCard({ borderColor: '#b0282a', defects: [{ kind: 'whitened-edge', edge: 'bottom', atMm: 30, lengthMm: 4 }] }), 26);
    const bottom = m.edges.find((edge) => edge.edge === 'bottom')!;
    expect(Math.abs(bottom.whitenedMm! - 4)).toBeLessThanOrEqual(0.3);
    for (const edge of m.edges.filter((e) => e.edge !== 'bottom')) expect(edge.whitenedMm).toBe(0);
    expect(rimDefects(m).map((d) => [d.kind, d.location])).toEqual([['edge-whitening', 'bottom']]);
  });
});
