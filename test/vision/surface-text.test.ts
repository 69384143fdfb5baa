import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { SideMeasurement } from '../../src/contracts/measurement.ts';
import { decodeImage, measureSide } from '../../src/vision/index.ts';
import { PX_PER_MM, renderNamedCardPhoto, TEST_CARDS } from '../identification/named-card.ts';

// Every real card carries printed lettering: dark strokes on a light band. Gaps between strokes are thin light
// lines and letters have dots and bowls; none of it is a scratch or a spot (GRADING.md §1.8).

async function measure(photo: Uint8Array): Promise<SideMeasurement> {
  return measureSide(await decodeImage(photo, { maxPixels: 50e6, maxSide: 2016 }), 'front');
}

/**
 * A light scratch drawn onto an upright (0°) photo of a text card, as the generator draws one (a thin near-white line),
 * on its art: from (x, y) in card millimetres, `lengthMm` long at `angleDeg`.
 */
async function withScratch(photo: Uint8Array, x: number, y: number, lengthMm: number, angleDeg: number): Promise<Uint8Array> {
  const { width, height } = await sharp(photo).metadata();
  // renderNamedCardPhoto centres the 63 × 88 mm card in the photo at PX_PER_MM.
  const left = width! / 2 - (63 * PX_PER_MM) / 2;
  const top = height! / 2 - (88 * PX_PER_MM) / 2;
  const angle = (angleDeg * Math.PI) / 180;
  const x1 = left + x * PX_PER_MM;
  const y1 = top + y * PX_PER_MM;
  const x2 = x1 + Math.cos(angle) * lengthMm * PX_PER_MM;
  const y2 = y1 + Math.sin(angle) * lengthMm * PX_PER_MM;
  const line = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#ffffff" stroke-opacity="0.9" stroke-width="${0.15 * PX_PER_MM}"/></svg>`;
  const jpeg = await sharp(photo).composite([{ input: Buffer.from(line) }]).jpeg({ quality: 85 }).toBuffer();
  return new Uint8Array(jpeg.buffer, jpeg.byteOffset, jpeg.length);
}

describe('surface of a card with printed lettering', () => {
  it.each([
    [TEST_CARDS[0]!.name, -2, TEST_CARDS[0]!],
    [TEST_CARDS[2]!.name, 0, TEST_CARDS[2]!],
    [TEST_CARDS[5]!.name, 2, TEST_CARDS[5]!],
  ] as const)('a flawless %s photographed at %i° has no surface defects', async (_name, rotationDeg, card) => {
    const m = await measure(await renderNamedCardPhoto(card, rotationDeg));
    expect(m.defects.filter((d) => d.location === 'surface')).toEqual([]);
    expect(m.surface.scratchLengthMm).toBe(0);
    expect(m.surface.spotCount).toBe(0);
  });

  it('a real light scratch on a text card is still found', async () => {
    // On the art (6–57 mm across, 12–50 mm down), a few millimetres from the name band and the attack text. Not on the
    // near-white attack box: a light line there is as light as the paper and would be taken for glare.
    const photo = await withScratch(await renderNamedCardPhoto(TEST_CARDS[0]!, 0), 15, 44, 8, -20);
    const m = await measure(photo);
    const scratches = m.defects.filter((d) => d.kind === 'scratch');
    expect(scratches).toHaveLength(1);
    expect(Math.abs(scratches[0]!.lengthMm! - 8)).toBeLessThanOrEqual(1);
    expect(Math.abs(scratches[0]!.angleDeg! - 160)).toBeLessThanOrEqual(3);
    expect(Math.abs(m.surface.scratchLengthMm - 8)).toBeLessThanOrEqual(1);
    expect(m.surface.spotCount).toBe(0);
  });
});
