import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { SAMPLE_CARDS } from '../../assets/sample-cards/generate.ts';
import { SAMPLE_CARDS_DIR } from '../../src/commands/cards/restore-sample-cards.ts';
import { decodeImage, measureSide, renderSyntheticCard } from '../../src/vision/index.ts';
import { MEASURE_MAX_SIDE } from '../../src/workers/grading/index.ts';
import { MAX_PIXELS, measureSynthetic, noisyCard } from './synthetic-photos.ts';

describe('surface (GRADING.md §1.8)', () => {
  it('a 15 mm scratch at 30°: one scratch, 15 ± 1.5 mm, angle ± 3°', async () => {
    const m = await measureSynthetic(noisyCard({ photo: { rotationDeg: -5, keystone: 0.04 }, defects: [{ kind: 'scratch', x: 30, y: 45, lengthMm: 15, angleDeg: 30 }] }), 31);
    const scratches = m.defects.filter((d) => d.kind === 'scratch');
    expect(scratches).toHaveLength(1);
    expect(Math.abs(scratches[0]!.lengthMm! - 15)).toBeLessThanOrEqual(1.5);
    expect(Math.abs(scratches[0]!.angleDeg! - 30)).toBeLessThanOrEqual(3);
    expect(Math.abs(m.surface.scratchLengthMm - 15)).toBeLessThanOrEqual(1.5);
    // Its box is where it was drawn: centred on (30, 45).
    const box = scratches[0]!.box;
    expect(Math.abs(box.x + box.width / 2 - 30)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(box.y + box.height / 2 - 45)).toBeLessThanOrEqual(0.5);
    expect(m.defects.filter((d) => d.kind !== 'scratch')).toEqual([]);
  });

  it('a print line runs along an axis across the face', async () => {
    const m = await measureSynthetic(noisyCard({ defects: [{ kind: 'print-line', orientation: 'vertical', atMm: 40 }] }), 32);
    expect(m.surface.printLine).toBe(true);
    expect(m.surface.scratchLengthMm).toBe(0);
    const lines = m.defects.filter((d) => d.kind === 'print-line');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.angleDeg).toBeCloseTo(90, 0);
  });

  it('the frame printed round the art is not a print line or a scratch; a print line across it still is', async () => {
    // The sample cards: a thin frame round the art (dark inside a pale border, light inside a dark one) that runs the
    // length of the face, measured as grading measures a photo. Each shows only the flaw it was drawn with.
    const flaws: string[][] = [];
    for (const card of SAMPLE_CARDS) {
      const photo = await readFile(new URL(card.file, SAMPLE_CARDS_DIR));
      flaws.push(measureSide(await decodeImage(photo, { maxPixels: MAX_PIXELS, maxSide: MEASURE_MAX_SIDE }), 'front').defects.map((d) => d.kind));
    }
    expect(flaws).toEqual([[], [], ['corner-whitening'], ['scratch'], ['edge-nick']]);

    const [gem] = SAMPLE_CARDS;
    const lined = await renderSyntheticCard({ ...gem!.spec, defects: [{ kind: 'print-line', orientation: 'vertical', atMm: 40 }] }, gem!.seed);
    const measured = measureSide(await decodeImage(lined, { maxPixels: MAX_PIXELS, maxSide: MEASURE_MAX_SIDE }), 'front');
    expect(measured.defects.map((d) => d.kind)).toEqual(['print-line']);
  });

  it('a spot is counted with its diameter', async () => {
    const m = await measureSynthetic(noisyCard({ defects: [{ kind: 'spot', x: 25, y: 60, diameterMm: 1 }] }), 33);
    expect(m.surface.spotCount).toBe(1);
    const spot = m.defects.find((d) => d.kind === 'spot')!;
    expect(Math.abs(spot.sizeMm - 1)).toBeLessThanOrEqual(0.3);
    expect(m.defects).toHaveLength(1);
  });

  it.each([41, 42, 43, 44])('a clean noisy card has no defects and grades ≥ 9.5 on every measurement (seed %i)', async (seed) => {
    const m = await measureSynthetic(noisyCard({ photo: { noise: 6, rotationDeg: seed - 42.5, keystone: 0.03 } }), seed);
    expect(m.defects).toEqual([]);
    expect(m.surface).toEqual({ scratchLengthMm: 0, spotCount: 0, printLine: false, crease: false, textured: false });
    // GRADING.md §2: ≥ 9.5 needs a worst centering share ≤ 55, corners D ≤ 0.25, no edge whitening or nick over 0.1.
    expect(m.centering.measurable).toBe(true);
    if (m.centering.measurable) expect(Math.max(m.centering.horizontal.worstShare, m.centering.vertical.worstShare)).toBeLessThanOrEqual(55);
    for (const corner of m.corners) expect(corner.defectMm).toBeLessThanOrEqual(0.25);
    for (const edge of m.edges) {
      expect(edge.nicks).toEqual([]);
      expect(edge.whitenedMm ?? 0).toBe(0);
    }
    expect(m.quality.hints).toEqual([]);
  });

  it('a blurred photo gets a hint and a lower confidence, not different measurements', async () => {
    const spec = noisyCard({ borders: { leftMm: 3.6, rightMm: 2.4, topMm: 3, bottomMm: 3 } });
    const sharp = await measureSynthetic(spec, 45);
    const blurred = await measureSynthetic({ ...spec, photo: { ...spec.photo, blur: 3 } }, 45);
    expect(sharp.quality.hints).toEqual([]);
    expect(blurred.quality.hints).toEqual(['The photo is blurred: hold the camera steady and let it focus on the card.']);
    expect(blurred.confidence).toBeLessThan(sharp.confidence);
    expect(blurred.defects).toEqual([]);
    if (!sharp.centering.measurable || !blurred.centering.measurable) throw new Error('centering not measured');
    expect(Math.abs(blurred.centering.horizontal.worstShare - sharp.centering.horizontal.worstShare)).toBeLessThanOrEqual(0.7);
  });
});
