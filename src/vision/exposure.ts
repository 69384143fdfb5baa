import type { DecodedImage } from './image.ts';

// The first stage after decoding: a photo taken in dim light has every step in it (a card's edge against the table,
// a whitened corner against its border) smaller by the same factor as its whites. The stages after this one read
// steps in levels (0–255), sized for a photo exposed normally; a dim photo is brought up to that exposure first, so
// a card photographed at dusk is measured like the same card by a window, instead of losing its edges to the
// thresholds.

/** The photo's white level is the level this share of its pixels reach or pass (in their brightest channel). */
const WHITE_SHARE = 0.02;
/**
 * A photo whose white level reaches this is exposed normally and left as it is: paper, a white border or a
 * highlight in a photo taken in ordinary light reaches it. Below it, levels are scaled up to reach it.
 */
const NORMAL_WHITE_LEVEL = 230;
/** At most this gain: beyond it a photo's noise and JPEG steps would be raised into edges and defects. */
const MAX_GAIN = 2;
/** The white level is read on every this-many-th pixel: a percentile needs far fewer than a 12-MP photo has. */
const SAMPLE_STRIDE = 7;

/** The gain that brings the photo's white level to NORMAL_WHITE_LEVEL: 1 for a photo exposed normally. */
export function exposureGain(image: DecodedImage): number {
  const histogram = new Uint32Array(256);
  const { data } = image;
  let samples = 0;
  for (let i = 0; i + 2 < data.length; i += 3 * SAMPLE_STRIDE) {
    const r = data[i]!;
    const g = data[i + 1]!;
    const b = data[i + 2]!;
    histogram[r > g ? (r > b ? r : b) : g > b ? g : b]!++;
    samples++;
  }
  let brighter = 0;
  for (let level = 255; level > 0; level--) {
    brighter += histogram[level]!;
    if (brighter >= WHITE_SHARE * samples) return level >= NORMAL_WHITE_LEVEL ? 1 : Math.min(MAX_GAIN, NORMAL_WHITE_LEVEL / level);
  }
  return MAX_GAIN;
}

/** The photo at normal exposure: itself when it already is, otherwise a copy with every level scaled up. */
export function normaliseExposure(image: DecodedImage): DecodedImage {
  const gain = exposureGain(image);
  if (gain === 1) return image;
  const lookup = new Uint8Array(256);
  for (let level = 0; level < 256; level++) lookup[level] = Math.min(255, Math.round(level * gain));
  const source = image.data;
  const data = new Uint8Array(source.length);
  // Two levels at a time through a table of every pair (each byte looked up on its own, so byte order does not
  // matter): half the reads and writes of a 12-MP photo's millions of levels, for a 128 KB table.
  const pairs = source.byteOffset % 2 === 0 ? source.length >> 1 : 0;
  if (pairs > 0) {
    const pairLookup = new Uint16Array(65536);
    for (let pair = 0; pair < 65536; pair++) pairLookup[pair] = lookup[pair & 255]! | (lookup[pair >> 8]! << 8);
    const from = new Uint16Array(source.buffer, source.byteOffset, pairs);
    const to = new Uint16Array(data.buffer, 0, pairs);
    for (let i = 0; i < pairs; i++) to[i] = pairLookup[from[i]!]!;
  }
  for (let i = pairs * 2; i < data.length; i++) data[i] = lookup[source[i]!]!;
  return { ...image, data };
}
