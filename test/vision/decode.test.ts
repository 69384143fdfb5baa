import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImage, measureSide, renderSyntheticCard } from '../../src/vision/index.ts';
import { MAX_PIXELS, noisyCard } from './synthetic-photos.ts';

describe('decodeImage', () => {
  it('turns the photo upright by its EXIF orientation', async () => {
    // Left half red, right half blue; orientation 6 means "rotate 90° clockwise to view".
    const left = await sharp({ create: { width: 20, height: 30, channels: 3, background: '#ff0000' } }).png().toBuffer();
    const photo = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#0000ff' } })
      .composite([{ input: left, left: 0, top: 0 }])
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const image = await decodeImage(photo, { maxPixels: MAX_PIXELS });
    expect([image.width, image.height]).toEqual([30, 40]);
    // After turning clockwise, the red left half is the top half.
    const top = image.data.subarray((5 * 30 + 15) * 3, (5 * 30 + 15) * 3 + 3);
    const bottom = image.data.subarray((35 * 30 + 15) * 3, (35 * 30 + 15) * 3 + 3);
    expect(top[0]).toBeGreaterThan(200);
    expect(bottom[2]).toBeGreaterThan(200);
  });

  it('converts greyscale, alpha and 16-bit input to 8-bit RGB', async () => {
    const grey = await sharp({ create: { width: 8, height: 6, channels: 3, background: '#808080' } }).greyscale().png().toBuffer();
    const rgba = await sharp({ create: { width: 8, height: 6, channels: 4, background: { r: 200, g: 10, b: 10, alpha: 1 } } }).png().toBuffer();
    const deep = await sharp({ create: { width: 8, height: 6, channels: 3, background: '#3366aa' } }).toColourspace('rgb16').png().toBuffer();
    for (const bytes of [grey, rgba, deep]) {
      const image = await decodeImage(bytes, { maxPixels: MAX_PIXELS });
      expect(image.channels).toBe(3);
      expect(image.data.length).toBe(8 * 6 * 3);
    }
    const image = await decodeImage(deep, { maxPixels: MAX_PIXELS });
    expect(Array.from(image.data.subarray(0, 3))).toEqual([0x33, 0x66, 0xaa]);
  });

  it('shrinks on load to maxSide', async () => {
    const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#123456' } }).jpeg().toBuffer();
    const image = await decodeImage(photo, { maxPixels: MAX_PIXELS, maxSide: 800 });
    expect([image.width, image.height]).toEqual([800, 600]);
  });

  it('grades CMYK JPEGs and 16-bit PNGs like any other photo', async () => {
    const png = await renderSyntheticCard(noisyCard({ borders: { leftMm: 3.6, rightMm: 2.4, topMm: 3, bottomMm: 3 }, photo: { format: 'png' } }), 11);
    const cmyk = await sharp(png).toColourspace('cmyk').jpeg({ quality: 92 }).toBuffer();
    const deep = await sharp(png).toColourspace('rgb16').png().toBuffer();
    expect((await sharp(cmyk).metadata()).space).toBe('cmyk');
    expect((await sharp(deep).metadata()).depth).toBe('ushort');
    for (const bytes of [cmyk, deep]) {
      const measurement = measureSide(await decodeImage(bytes, { maxPixels: MAX_PIXELS }), 'back');
      expect(measurement.side).toBe('back');
      expect(measurement.centering.measurable).toBe(true);
      if (!measurement.centering.measurable) continue;
      expect(measurement.centering.leftMm).toBeCloseTo(3.6, 0);
      expect(Math.abs(measurement.centering.horizontal.worstShare - 60)).toBeLessThanOrEqual(0.7);
    }
  });
});
