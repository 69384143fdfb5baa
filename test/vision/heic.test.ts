import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { sniffImageType } from '../../src/contracts/image-formats.ts';
import { decodeHeic, decodeImage, displayCopy, ImageMeasurementError, measureSide, renderSyntheticCard } from '../../src/vision/index.ts';
import { gradeCard, MEASURE_MAX_SIDE } from '../../src/workers/grading/index.ts';
import { HEIC_CARD, HEIC_CARD_SEED, heicFixture, withRotation } from './heic-fixture.ts';
import { failureOf, MAX_PIXELS } from './synthetic-photos.ts';

// HEIC, an iPhone's default (issue 17): decoded by libheif and measured like the PNG it was encoded from.

/**
 * How far a border measured on the HEIC may be from the PNG's: HEVC at quality 50 smooths the camera noise and
 * can move a sharp edge by a fraction of a pixel; 0.05 mm is 0.6 px at the fixture's 12 px/mm (seen: 0.01 mm).
 */
const BORDER_TOLERANCE_MM = 0.05;
/** A whitened corner's length: its pale edge is where HEVC's smoothing shows most (seen: the same to 0.01 mm). */
const WHITENING_TOLERANCE_MM = 0.1;
/**
 * A grade from the HEIC against the PNG's: the grade scale's own step is 0.5 at most, so a quarter grade is the most
 * a sub-pixel difference should move any subgrade (seen: identical).
 */
const GRADE_TOLERANCE = 0.25;

const [FIXTURE_WIDTH, FIXTURE_HEIGHT] = [1126, 1408];

describe('HEIC photos', () => {
  it('are told by their ftyp brands, apart from AVIF, which shares the container', async () => {
    const heic = await heicFixture();
    expect(sniffImageType(heic)).toBe('image/heic');
    const avif = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#336699' } }).avif().toBuffer();
    expect(sniffImageType(avif)).toBe('image/avif');
    // An ISO-BMFF file of another kind (an MP4 video) is not a photo.
    expect(sniffImageType(Buffer.from('0000001866747970697336360000000069736f6d61766331', 'hex'))).toBeNull();
  });

  it('decode to upright RGB at their own size, or shrunk to maxSide with the original size kept', async () => {
    const heic = await heicFixture();
    const image = await decodeImage(heic, { maxPixels: MAX_PIXELS });
    expect([image.width, image.height, image.channels, image.data.length]).toEqual([FIXTURE_WIDTH, FIXTURE_HEIGHT, 3, FIXTURE_WIDTH * FIXTURE_HEIGHT * 3]);
    expect(image.original).toBeUndefined();
    const shrunk = await decodeImage(heic, { maxPixels: MAX_PIXELS, maxSide: 800 });
    expect([shrunk.width, shrunk.height]).toEqual([640, 800]);
    expect(shrunk.original).toEqual({ width: FIXTURE_WIDTH, height: FIXTURE_HEIGHT });
  });

  it('are turned upright by their rotation (irot), as an iPhone stores a portrait photo taken sideways', async () => {
    const image = await decodeImage(withRotation(await heicFixture(), 1), { maxPixels: MAX_PIXELS });
    expect([image.width, image.height]).toEqual([FIXTURE_HEIGHT, FIXTURE_WIDTH]);
    const png = await renderSyntheticCard(HEIC_CARD, HEIC_CARD_SEED);
    const meanDifference = async (clockwise: number) => {
      const turned = await sharp(png).rotate(clockwise).removeAlpha().raw().toBuffer();
      let sum = 0;
      for (let i = 0; i < image.data.length; i++) sum += Math.abs(image.data[i]! - turned[i]!);
      return sum / image.data.length;
    };
    // A quarter turn anticlockwise: as the PNG turned 270° clockwise, up to HEVC's loss (seen 2.5 levels; 28 the other way).
    expect(await meanDifference(270)).toBeLessThan(5);
    expect(await meanDifference(90)).toBeGreaterThan(15);
  });

  it('measure and grade as the PNG they were encoded from, within what lossy HEVC moves', async () => {
    const [heic, png] = [await heicFixture(), await renderSyntheticCard(HEIC_CARD, HEIC_CARD_SEED)];
    const measure = async (bytes: Uint8Array) => measureSide(await decodeImage(bytes, { maxPixels: MAX_PIXELS, maxSide: MEASURE_MAX_SIDE }), 'front');
    const [fromHeic, fromPng] = [await measure(heic), await measure(png)];
    const [heicCentering, pngCentering] = [fromHeic.centering, fromPng.centering];
    expect(heicCentering.measurable && pngCentering.measurable).toBe(true);
    if (!heicCentering.measurable || !pngCentering.measurable) return;
    for (const side of ['leftMm', 'rightMm', 'topMm', 'bottomMm'] as const) {
      expect(Math.abs(heicCentering[side] - pngCentering[side])).toBeLessThanOrEqual(BORDER_TOLERANCE_MM);
    }
    expect(heicCentering.leftMm).toBeCloseTo(3.6, 1);
    // NaN where not measured, so that no comparison passes.
    const whitened = (m: typeof fromHeic) => m.corners.find((c) => c.corner === 'topLeft')!.whitenedMm ?? Number.NaN;
    expect(whitened(fromPng)).toBeGreaterThan(1);
    expect(Math.abs(whitened(fromHeic) - whitened(fromPng))).toBeLessThanOrEqual(WHITENING_TOLERANCE_MM);

    const [heicCard, pngCard] = await Promise.all([gradeCard({ front: heic }, { maxPixels: MAX_PIXELS }), gradeCard({ front: png }, { maxPixels: MAX_PIXELS })]);
    expect(Math.abs(heicCard.card.overallGrade - pngCard.card.overallGrade)).toBeLessThanOrEqual(GRADE_TOLERANCE);
    for (const subgrade of ['centering', 'corners', 'edges', 'surface'] as const) {
      expect(Math.abs((heicCard.card.grades[subgrade] ?? Number.NaN) - (pngCard.card.grades[subgrade] ?? Number.NaN))).toBeLessThanOrEqual(GRADE_TOLERANCE);
    }
    expect(pngCard.card.grades.corners).toBeLessThan(9);
    // The pages get a JPEG of the HEIC (browsers but Safari cannot draw HEIC); a JPEG needs none.
    expect(pngCard.display).toEqual({});
    const shown = await sharp(heicCard.display.front!).metadata();
    expect([shown.format, shown.width, shown.height]).toEqual(['jpeg', FIXTURE_WIDTH, FIXTURE_HEIGHT]);
  });

  it('are refused as too large from their header, before their pixels are decoded', async () => {
    const heic = await heicFixture();
    const error = await failureOf(() => decodeHeic(heic, 1_000_000));
    expect(error).toBeInstanceOf(ImageMeasurementError);
    expect(error).toMatchObject({ code: 'image_too_large', details: { width: FIXTURE_WIDTH, height: FIXTURE_HEIGHT, maxPixels: 1_000_000 } });
  });

  it('cut short or garbled are refused as damaged, like any other photo, and the next one decodes', async () => {
    const heic = await heicFixture();
    for (const length of [32, 400, 2_000, heic.length >> 1, heic.length - 64]) {
      const error = await failureOf(() => decodeImage(heic.subarray(0, length), { maxPixels: MAX_PIXELS }));
      expect(error, `cut at ${length} bytes`).toMatchObject({ code: 'truncated_image', message: 'The photo is damaged or incomplete.' });
    }
    // The boxes that say where the picture is, overwritten.
    const garbled = Buffer.from(heic);
    garbled.fill(0xff, 40, 600);
    expect(await failureOf(() => decodeImage(garbled, { maxPixels: MAX_PIXELS }))).toMatchObject({ code: 'truncated_image' });
    expect((await decodeImage(heic, { maxPixels: MAX_PIXELS, maxSide: 400 })).height).toBe(400);
  });

  it('have a JPEG copy at full size for the pages', async () => {
    const pixels = await decodeHeic(await heicFixture(), MAX_PIXELS);
    const jpeg = await displayCopy(pixels);
    expect(sniffImageType(jpeg)).toBe('image/jpeg');
    const { width, height } = await sharp(jpeg).metadata();
    expect([width, height]).toEqual([FIXTURE_WIDTH, FIXTURE_HEIGHT]);
  });
});
