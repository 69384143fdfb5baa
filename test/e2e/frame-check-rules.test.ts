import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { closeEnoughToGrade, MIN_PX_PER_MM } from '../../src/contracts/measurement.ts';
import { decodeImage, ImageMeasurementError, measureSide, renderSyntheticCard } from '../../src/vision/index.ts';
import type { SyntheticCardSpec } from '../../src/vision/index.ts';
import { checkFrame, checkSize, guideRect, type CaptureSize, type Rgba } from '../../web/src/features/camera/frame-check.ts';

// The camera's frame check (issue 17) on drawn frames, the way the browser feeds it: the camera's picture scaled down
// to 320 pixels on its longer side, RGBA. A card filling the guide is ready; one held too far away, blurred by a
// shaking hand, moving, or under glare gets the hint that says what to fix.

/** A webcam's photo size (4:3, as the drawn frames): a card filling the guide has about 8.7 px/mm in it. */
const WEBCAM: CaptureSize = { width: 1280, height: 960 };

async function frame(spec: SyntheticCardSpec, seed: number, glare = false): Promise<Rgba> {
  let photo = sharp(await renderSyntheticCard({ pxPerMm: 3, ...spec, photo: { aspect: 4 / 3, cardScale: 0.8, noise: 2, ...spec.photo } }, seed));
  const { width = 0, height = 0 } = await photo.metadata();
  if (glare) {
    // A blown-out reflection across the middle of the card.
    const spot = Buffer.from(`<svg width="${width}" height="${height}"><ellipse cx="${width / 2}" cy="${height / 2}" rx="${width / 12}" ry="${height / 10}" fill="#fff"/></svg>`);
    photo = sharp(await photo.composite([{ input: spot }]).png().toBuffer());
  }
  const size = checkSize(width, height);
  const { data, info } = await photo.resize(size.width, size.height, { fit: 'fill' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

describe('the camera frame check', () => {
  it('given a card filling the guide, when checked twice without moving, then it is found and ready', async () => {
    const card = await frame({}, 1);
    const first = checkFrame(card, null, WEBCAM);
    expect(first.card).not.toBeNull();
    expect(first.hint).toBe('steady');
    const second = checkFrame(card, first.card, WEBCAM);
    expect(second.hint).toBe('ready');
    // The sides found lie on the guide's, within a few pixels of the 320-pixel frame.
    const guide = guideRect(card.width, card.height);
    for (const side of ['left', 'top', 'right', 'bottom'] as const) expect(Math.abs(second.card![side] - guide[side])).toBeLessThan(5);
    expect(second.sharpness).toBeGreaterThan(0.3);
    expect(second.glare).toBeLessThan(0.005);
  });

  it('given a card at half the guide\'s height, then Move closer', async () => {
    const small = await frame({ photo: { cardScale: 0.5 } }, 2);
    const result = checkFrame(small, checkFrame(small, null, WEBCAM).card, WEBCAM);
    expect(result.hint).toBe('closer');
  });

  it('given a blurred frame, then Hold still', async () => {
    const blurred = await frame({ photo: { blur: 3.5 } }, 3);
    const result = checkFrame(blurred, checkFrame(blurred, null, WEBCAM).card, WEBCAM);
    expect(result.hint).toBe('steady');
    expect(result.sharpness).toBeLessThan(0.22);
  });

  it('given a card that moved by a few pixels since the last frame, then Hold still', async () => {
    const here = await frame({ photo: { centerX: 0.5 } }, 4);
    const there = await frame({ photo: { centerX: 0.52 } }, 4);
    expect(checkFrame(there, checkFrame(here, null, WEBCAM).card, WEBCAM).hint).toBe('steady');
  });

  it('given glare on the card, then Tilt to remove the glare', async () => {
    const shiny = await frame({}, 5, true);
    const result = checkFrame(shiny, checkFrame(shiny, null, WEBCAM).card, WEBCAM);
    expect(result.hint).toBe('glare');
  });

  it('given no card, or a card cut off by the frame, then Fit the card inside the guide', async () => {
    const empty = await frame({ variant: 'no-card' }, 6);
    expect(checkFrame(empty, null, WEBCAM).hint).toBe('place');
    const cut = await frame({ variant: 'cut-off' }, 7);
    expect(checkFrame(cut, null, WEBCAM).hint).toBe('place');
  });

  it('checks a 320 × 240 frame in a few milliseconds', async () => {
    const card = await frame({}, 8);
    let previous = checkFrame(card, null, WEBCAM).card;
    const started = performance.now();
    const runs = 200;
    for (let i = 0; i < runs; i++) previous = checkFrame(card, previous, WEBCAM).card;
    const perFrame = (performance.now() - started) / runs;
    console.log(`frame check in Node: ${perFrame.toFixed(2)} ms per 320 × 240 frame`);
    expect(perFrame).toBeLessThan(15);
  });

  it('judges close enough by the grader\'s px/mm at the size of the photo to be taken, not of the frame it reads', async () => {
    const card = await frame({}, 9);
    const previous = checkFrame(card, null, WEBCAM).card;
    // The same frame, the card filling the guide (80% of the height): close enough once the photo has the pixels.
    // 4.5 px/mm × 88 mm / 0.8 = 495 px of height is where the grader's rule turns.
    for (const height of [360, 480, 540, 720, 960, 3024]) {
      const capture = { width: (height * 4) / 3, height };
      const result = checkFrame(card, previous, capture);
      expect(result.pxPerMm).toBeCloseTo((0.8 * height) / 88, 0);
      expect(result.hint, `${capture.width} × ${capture.height}`).toBe(closeEnoughToGrade(result.pxPerMm) ? 'ready' : 'closer');
    }
    expect(checkFrame(card, previous, { width: 640, height: 480 }).hint).toBe('closer');
    expect(checkFrame(card, previous, { width: 960, height: 720 }).hint).toBe('ready');
  });

  it('agrees with the grader on the photo itself: Move closer where it refuses card_too_small, ready where it measures', async () => {
    for (const pxPerMm of [4.2, 4.4, 4.6, 5]) {
      // The photo as the camera takes it (the card filling the guide), and the check's copy of it.
      const photo = await renderSyntheticCard({ pxPerMm, photo: { aspect: 4 / 3, cardScale: 0.8, noise: 2 } }, 10);
      const { width = 0, height = 0 } = await sharp(photo).metadata();
      const size = checkSize(width, height);
      const { data, info } = await sharp(photo).resize(size.width, size.height, { fit: 'fill' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      const copy: Rgba = { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
      const check = checkFrame(copy, checkFrame(copy, null, { width, height }).card, { width, height });

      const image = await decodeImage(photo, { maxPixels: 50_000_000 });
      let graderPxPerMm: number;
      try {
        graderPxPerMm = measureSide(image, 'front').quality.sourcePxPerMm;
      } catch (error) {
        expect(error).toBeInstanceOf(ImageMeasurementError);
        expect((error as ImageMeasurementError).code).toBe('card_too_small');
        graderPxPerMm = (error as ImageMeasurementError & { details: { pxPerMm: number } }).details.pxPerMm;
      }
      console.log(`a ${width} × ${height} photo at ${pxPerMm} px/mm: the guide reads ${check.pxPerMm.toFixed(2)}, the grader ${graderPxPerMm.toFixed(2)} (needs ${MIN_PX_PER_MM})`);
      expect(Math.abs(check.pxPerMm - graderPxPerMm) / graderPxPerMm).toBeLessThan(0.04);
      expect(check.hint).toBe(closeEnoughToGrade(graderPxPerMm) ? 'ready' : 'closer');
      expect(check.hint).toBe(pxPerMm < MIN_PX_PER_MM ? 'closer' : 'ready');
    }
  });
});
