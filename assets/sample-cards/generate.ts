// Draws the sample cards that POST /api/restore-sample-cards grades into a collection. Run once; the JPEGs are
// committed, so the app never draws them at run time:  node assets/sample-cards/generate.ts
import { writeFile } from 'node:fs/promises';
import { renderSyntheticCard, type SyntheticCardSpec } from '../../src/vision/index.ts';

const photo = { noise: 2, jpegQuality: 80, cardScale: 0.8, rotationDeg: 1.5 } as const;
const pxPerMm = 14;

/** File name, seed, and what is wrong with the card: one gem and four that each show a kind of flaw; named, for OCR. */
export const SAMPLE_CARDS: Array<{ file: string; seed: number; spec: SyntheticCardSpec }> = [
  { file: '1-gem-mint.jpg', seed: 11, spec: { pxPerMm, photo, lettering: { name: 'Pikachu' } } },
  { file: '2-off-center.jpg', seed: 12, spec: { pxPerMm, photo, lettering: { name: 'Charizard' }, borders: { leftMm: 4.2, rightMm: 1.8, topMm: 3, bottomMm: 3 } } },
  {
    file: '3-whitened-corner.jpg',
    seed: 13,
    spec: { pxPerMm, photo, lettering: { name: 'Blastoise' }, defects: [{ kind: 'whitened-corner', corner: 'topLeft', lengthMm: 1.2 }] },
  },
  {
    file: '4-scratched.jpg',
    seed: 14,
    spec: { pxPerMm, photo, lettering: { name: 'Gyarados' }, defects: [{ kind: 'scratch', x: 30, y: 40, lengthMm: 18, angleDeg: 30 }] },
  },
  {
    file: '5-edge-wear.jpg',
    seed: 15,
    spec: {
      pxPerMm,
      photo,
      lettering: { name: 'Mewtwo' },
      defects: [
        { kind: 'nick', edge: 'right', atMm: 44, depthMm: 0.6 },
        { kind: 'whitened-edge', edge: 'bottom', atMm: 30, lengthMm: 8 },
      ],
    },
  },
];

if (import.meta.main) {
  for (const card of SAMPLE_CARDS) {
    const bytes = await renderSyntheticCard(card.spec, card.seed);
    await writeFile(new URL(card.file, import.meta.url), bytes);
    console.log(`${card.file}: ${Math.round(bytes.length / 1024)} KB`);
  }
}
