import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { renderSyntheticCard } from '../../src/vision/index.ts';
import type { SyntheticCardSpec } from '../../src/vision/index.ts';
import { checkFrame, checkSize, guideRect, type Rgba } from '../../web/src/features/camera/frame-check.ts';

// The camera's frame check (issue 17) on drawn frames, the way the browser feeds it: the camera's picture scaled down
// to 320 pixels on its longer side, RGBA. A card filling the guide is ready; one held too far away, blurred by a
// shaking hand, moving, or under glare gets the hint that says what to fix.

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
    const first = checkFrame(card, null);
    expect(first.card).not.toBeNull();
    expect(first.hint).toBe('steady');
    const second = checkFrame(card, first.card);
    expect(second.hint).toBe('ready');
    // The sides found lie on the guide's, within a few pixels of the 320-pixel frame.
    const guide = guideRect(card.width, card.height);
    for (const side of ['left', 'top', 'right', 'bottom'] as const) expect(Math.abs(second.card![side] - guide[side])).toBeLessThan(5);
    expect(second.sharpness).toBeGreaterThan(0.3);
    expect(second.glare).toBeLessThan(0.005);
  });

  it('given a card at half the guide\'s height, then Move closer', async () => {
    const small = await frame({ photo: { cardScale: 0.5 } }, 2);
    const result = checkFrame(small, checkFrame(small, null).card);
    expect(result.hint).toBe('closer');
  });

  it('given a blurred frame, then Hold still', async () => {
    const blurred = await frame({ photo: { blur: 3.5 } }, 3);
    const result = checkFrame(blurred, checkFrame(blurred, null).card);
    expect(result.hint).toBe('steady');
    expect(result.sharpness).toBeLessThan(0.22);
  });

  it('given a card that moved by a few pixels since the last frame, then Hold still', async () => {
    const here = await frame({ photo: { centerX: 0.5 } }, 4);
    const there = await frame({ photo: { centerX: 0.52 } }, 4);
    expect(checkFrame(there, checkFrame(here, null).card).hint).toBe('steady');
  });

  it('given glare on the card, then Tilt to remove the glare', async () => {
    const shiny = await frame({}, 5, true);
    const result = checkFrame(shiny, checkFrame(shiny, null).card);
    expect(result.hint).toBe('glare');
  });

  it('given no card, or a card cut off by the frame, then Fit the card inside the guide', async () => {
    const empty = await frame({ variant: 'no-card' }, 6);
    expect(checkFrame(empty, null).hint).toBe('place');
    const cut = await frame({ variant: 'cut-off' }, 7);
    expect(checkFrame(cut, null).hint).toBe('place');
  });

  it('checks a 320 × 240 frame in a few milliseconds', async () => {
    const card = await frame({}, 8);
    let previous = checkFrame(card, null).card;
    const started = performance.now();
    const runs = 200;
    for (let i = 0; i < runs; i++) previous = checkFrame(card, previous).card;
    const perFrame = (performance.now() - started) / runs;
    console.log(`frame check in Node: ${perFrame.toFixed(2)} ms per 320 × 240 frame`);
    expect(perFrame).toBeLessThan(15);
  });
});
