import { describe, expect, it } from 'vitest';
import { CARD_HEIGHT_MM, CARD_WIDTH_MM } from '../../src/contracts/measurement.ts';
import { measureCentering } from '../../src/vision/centering.ts';
import type { FlatCard } from '../../src/vision/flatten.ts';
import { PICTURE_PX_PER_MM } from '../../src/vision/flatten.ts';
import { Prng } from '../../src/vision/synthetic/prng.ts';

// Where a border begins, on the flattened card itself: the found outline is where the strips start, and what lies
// between it and the border's full colour decides whether the border is measured from the outline or from further
// in. Drawn straight onto the picture, so the outline is known exactly.

const BORDERS = { left: 2.4, right: 3.6, top: 3.3, bottom: 3.7 };
const YELLOW = [232, 195, 58] as const;
const ART = [70, 90, 150] as const;
const TABLE = [214, 214, 210] as const;
const WHITE = [244, 244, 240] as const;

interface Face {
  /** A band of table this wide inside the outline (a sleeve's margin the outline was found on). */
  bandMm: number;
  /** The border paler towards the card's edge, full colour from this far in from where the card begins. */
  paleRimMm: number;
  light: number;
  noise: number;
}

/** The upright card at the picture's resolution, lightly blurred as a photo's outline is, then dimmed and noised. */
function drawnFace({ bandMm, paleRimMm, light, noise }: Face, seed: number): FlatCard {
  const px = PICTURE_PX_PER_MM;
  const width = Math.round(CARD_WIDTH_MM * px);
  const height = Math.round(CARD_HEIGHT_MM * px);
  const sharp = new Float64Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const xMm = (x + 0.5) / px;
      const yMm = (y + 0.5) / px;
      const fromEdge = Math.min(xMm, yMm, CARD_WIDTH_MM - xMm, CARD_HEIGHT_MM - yMm) - bandMm;
      const inArt = xMm > bandMm + BORDERS.left && xMm < CARD_WIDTH_MM - bandMm - BORDERS.right && yMm > bandMm + BORDERS.top && yMm < CARD_HEIGHT_MM - bandMm - BORDERS.bottom;
      const pale = paleRimMm > 0 ? 0.5 * Math.max(0, 1 - fromEdge / paleRimMm) : 0;
      for (let c = 0; c < 3; c++) {
        sharp[(y * width + x) * 3 + c] = fromEdge < 0 ? TABLE[c]! : inArt ? ART[c]! : YELLOW[c]! + pale * (WHITE[c]! - YELLOW[c]!);
      }
    }
  }
  const rng = new Prng(seed);
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 3; c++) {
        let sum = 0;
        let n = 0;
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const sx = Math.min(width - 1, Math.max(0, x + dx));
            const sy = Math.min(height - 1, Math.max(0, y + dy));
            sum += sharp[(sy * width + sx) * 3 + c]!;
            n++;
          }
        }
        data[(y * width + x) * 3 + c] = Math.max(0, Math.min(255, Math.round((sum / n) * light + noise * rng.gaussian())));
      }
    }
  }
  return { data, width, height, pxPerMm: px, marginPx: 0, widthMm: CARD_WIDTH_MM, heightMm: CARD_HEIGHT_MM };
}

function widths(flat: FlatCard) {
  const centering = measureCentering(flat);
  if (!centering.measurable) throw new Error(centering.reason);
  return { left: centering.leftMm, right: centering.rightMm, top: centering.topMm, bottom: centering.bottomMm };
}

const BAND = { bandMm: 0.9, paleRimMm: 0 };
const PALE_RIM = { bandMm: 0, paleRimMm: 0.9 };
const ORDINARY = { light: 1, noise: 2 };
const DIM_NOISY = { light: 0.7, noise: 5 };

describe('where a border begins', () => {
  it.each([
    ['a band of table 0.9 mm wide inside the outline', 'ordinary light', 'where the card begins', BAND, ORDINARY],
    ['a band of table 0.9 mm wide inside the outline', 'dim and noisy', 'where the card begins', BAND, DIM_NOISY],
    ['a pale rim easing into the border over 0.9 mm from the outline', 'ordinary light', 'the outline', PALE_RIM, ORDINARY],
    ['a pale rim easing into the border over 0.9 mm from the outline', 'dim and noisy', 'the outline', PALE_RIM, DIM_NOISY],
  ])('given %s (%s), when measured, then each border is read from %s', (_, __, ___, face, photo) => {
    const read = widths(drawnFace({ ...face, ...photo }, 7));
    for (const side of ['left', 'right', 'top', 'bottom'] as const) expect(Math.abs(read[side] - BORDERS[side])).toBeLessThanOrEqual(0.1);
  });
});
