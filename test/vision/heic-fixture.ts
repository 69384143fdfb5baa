import { readFile } from 'node:fs/promises';
import type { SyntheticCardSpec } from '../../src/vision/index.ts';

// test/fixtures/card.heic: the card below, rendered as a PNG by renderSyntheticCard and encoded once with libheif's
// own encoder (x265), as an iPhone's photo is HEVC in HEIF, by
//   heif-enc -q 50 -o test/fixtures/card.heic card.png   (Debian's libheif-examples 1.15.1; 101 KB)
// sharp's libvips encodes AVIF but not HEVC, so the file is committed; the PNG is not: the same spec and seed draw the same bytes.

/** A 1.6-MP photo (1126 × 1408), the card at 12 px/mm, off-centre left-right (3.6 / 2.4 mm) and a corner whitened 1.5 mm. */
export const HEIC_CARD: SyntheticCardSpec = {
  pxPerMm: 12,
  borders: { leftMm: 3.6, rightMm: 2.4, topMm: 3, bottomMm: 3 },
  defects: [{ kind: 'whitened-corner', corner: 'topLeft', lengthMm: 1.5 }],
  photo: { noise: 3, format: 'png' },
};
export const HEIC_CARD_SEED = 7;

export const HEIC_FIXTURE = new URL('../fixtures/card.heic', import.meta.url);

export const heicFixture = (): Promise<Buffer> => readFile(HEIC_FIXTURE);
