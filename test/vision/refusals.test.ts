import { deflateSync, crc32 } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/contracts/errors.ts';
import { measurementRefusalDetailsSchema } from '../../src/contracts/measurement.ts';
import { decodeImage, ImageMeasurementError, measureSide, renderSyntheticCard } from '../../src/vision/index.ts';
import { failureOf, MAX_PIXELS } from './synthetic-photos.ts';

/** A real PNG of width × height 1-bit grey pixels, all zero: tiny on disk, enormous decoded. */
function pngOfZeros(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc(height * (1 + Math.ceil(width / 8))); // filter byte 0 and zero pixels on every row
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

async function refusalOf(bytes: Uint8Array): Promise<ImageMeasurementError> {
  const error = await failureOf(async () => measureSide(await decodeImage(bytes, { maxPixels: MAX_PIXELS }), 'front'));
  expect(error).toBeInstanceOf(ImageMeasurementError);
  expect(error).toBeInstanceOf(AppError);
  return error as ImageMeasurementError;
}

describe('refusals: each photo that cannot be graded has its own code', () => {
  const codes = new Map<string, string>();
  const refuses = (name: string, code: string, kind: string, bytes: () => Promise<Uint8Array>) =>
    it(`${name} → ${code}`, async () => {
      const error = await refusalOf(await bytes());
      expect(error.code).toBe(code);
      expect(error.kind).toBe(kind);
      expect(error.message.length).toBeGreaterThan(10);
      codes.set(name, error.code);
    });

  refuses('0 bytes', 'empty_image', 'unprocessable', async () => new Uint8Array(0));
  refuses('a text file named .jpg', 'not_an_image', 'unsupported', async () => new TextEncoder().encode('This is not a photo of a card.\n'));
  refuses('an SVG', 'not_an_image', 'unsupported', async () =>
    new TextEncoder().encode('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="630" height="880"><rect width="630" height="880" fill="red"/></svg>'),
  );
  refuses('a truncated JPEG', 'truncated_image', 'unprocessable', async () => {
    const jpeg = await renderSyntheticCard({ pxPerMm: 6 }, 1);
    return jpeg.subarray(0, Math.floor(jpeg.length * 0.6));
  });
  refuses('a 30,000 × 30,000 PNG (decompression bomb)', 'image_too_large', 'too_large', async () => pngOfZeros(30_000, 30_000));
  refuses('an animated GIF', 'animated_image', 'unsupported', async () => {
    const frames = await Promise.all(['#ff0000', '#00ff00', '#0000ff'].map((colour) => sharp({ create: { width: 60, height: 40, channels: 3, background: colour } }).png().toBuffer()));
    return sharp(frames, { join: { animated: true } }).gif().toBuffer();
  });
  refuses('a photo with no card', 'no_card_found', 'unprocessable', () => renderSyntheticCard({ variant: 'no-card', pxPerMm: 8, photo: { noise: 3 } }, 2));
  refuses('a card cut off by the photo edge', 'card_cut_off', 'unprocessable', () => renderSyntheticCard({ variant: 'cut-off', pxPerMm: 8, photo: { noise: 3 } }, 3));
  refuses('a blank image', 'blank_image', 'unprocessable', () => renderSyntheticCard({ variant: 'blank', pxPerMm: 8, photo: { noise: 3 } }, 4));
  refuses('a card at 4 px/mm (grading needs 4.5)', 'card_too_small', 'unprocessable', () =>
    renderSyntheticCard({ pxPerMm: 4, photo: { cardScale: 0.35, aspect: 16 / 9, noise: 3 } }, 5),
  );
  // A seller's thumbnail (issue 30): a clear slab cut by the photo's top edge through its label, the card whole
  // inside it at 4 px/mm. The card is not cut off; it is too small.
  refuses('a slab in a 4 px/mm thumbnail, its label cut by the photo', 'card_too_small', 'unprocessable', () =>
    renderSyntheticCard(
      { pxPerMm: 4, borderColor: '#ece6d2', photo: { noise: 3, cardScale: 0.8, aspect: 0.8, centerY: 0.5, background: '#6a4a35', slab: { company: 'PSA', gradeText: 'NM-MT 8', cert: '12345678' } } },
      6,
    ),
  );
  // Issue 31: a white border on white paper, no shadow at its cut: only the art's printed frame is seen, not the card.
  refuses('a white-bordered card on white paper whose cut cannot be seen', 'card_edge_unseen', 'unprocessable', () =>
    renderSyntheticCard({ pxPerMm: 8, borderColor: '#f3f3ef', photo: { surface: 'white-paper', noise: 3, rotationDeg: 3 } }, 3),
  );
  refuses('a square object instead of a card', 'not_card_shaped', 'unprocessable', async () => {
    const square = await sharp({ create: { width: 600, height: 600, channels: 3, background: '#c03030' } }).png().toBuffer();
    return sharp({ create: { width: 1000, height: 1000, channels: 3, background: '#303840' } })
      .composite([{ input: square, left: 200, top: 200 }])
      .jpeg({ quality: 85 })
      .toBuffer();
  });

  it('a refusal says what was found: the outline, the resolution reached and needed, the cut side', async () => {
    const small = await refusalOf(await renderSyntheticCard({ pxPerMm: 4, photo: { cardScale: 0.35, aspect: 16 / 9, noise: 3 } }, 5));
    const details = measurementRefusalDetailsSchema.parse(small.details);
    expect(details.pxPerMm).toBeGreaterThan(3.7);
    expect(details.pxPerMm).toBeLessThan(4.3);
    expect(details.neededPxPerMm).toBe(4.5);
    expect(details.outline).toHaveLength(4);

    const cut = measurementRefusalDetailsSchema.parse((await refusalOf(await renderSyntheticCard({ variant: 'cut-off', pxPerMm: 8, photo: { noise: 3 } }, 3))).details);
    expect(cut.cutSides.length).toBeGreaterThan(0);
    expect(cut.photo.width).toBeGreaterThan(0);
  });

  it('how much of the frame the card fills does not matter: a card at 6 px/mm across 20% of a 16:9 frame is graded', async () => {
    const image = await decodeImage(await renderSyntheticCard({ pxPerMm: 6, photo: { cardScale: 0.45, aspect: 16 / 9, noise: 3 } }, 6), { maxPixels: MAX_PIXELS });
    const measured = measureSide(image, 'front');
    expect(measured.quality.sourcePxPerMm).toBeGreaterThan(5.5);
    expect(measured.quality.sourcePxPerMm).toBeLessThan(6.5);
  });

  it('the decompression bomb is refused from its header, before decoding', async () => {
    const started = performance.now();
    await refusalOf(pngOfZeros(30_000, 30_000));
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('the codes are all different where the reasons are', () => {
    // Second examples of a reason already there: an SVG is not an image as a text file is; a thumbnail's card is too small.
    const secondExamples = new Set(['an SVG', 'a slab in a 4 px/mm thumbnail, its label cut by the photo']);
    const byReason = [...codes.entries()].filter(([name]) => !secondExamples.has(name));
    expect(new Set(byReason.map(([, code]) => code)).size).toBe(byReason.length);
  });
});
