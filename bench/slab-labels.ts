// npm run bench:labels -- [DIR]: reading slab labels on real photos. For every photo in DIR/labels.json (default
// ../shared/graded beside the project) the label is found as the engine finds it and read offline (OCR), and what was
// read is printed against the truth: the grader and grade for a photo with its label in frame, and for one without,
// that nothing was read. Then the share read right (grader and grade) and the false reads.
//
// The engine's card outline on a slab photo may be the holder's body below the label or the card itself, which sits
// 6–20 mm below the label's foot. Both are measured: "outline" is the outline the engine found; "card +6 mm" and
// "card +16 mm" shrink it to a card-sized outline whose top lies that much below the outline's top (where the
// label's foot is in a holder's outline), as a card outline would be found. A photo the engine refuses gets no grade
// and so no label; what its label alone would give (found in the photo, no outline) is counted apart.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { SlabLabel } from '../src/contracts/grading.ts';
import { CARD_HEIGHT_MM, CARD_WIDTH_MM } from '../src/contracts/measurement.ts';
import type { Point } from '../src/contracts/measurement.ts';
import { createSlabLabelReader } from '../src/infra/identification/slab-label-reader.ts';
import { CARD_CORNERS_MM } from '../src/vision/card-outline.ts';
import { homographyFromPoints } from '../src/vision/geometry.ts';
import { MEASURE_MAX_SIDE } from '../src/workers/grading/index.ts';
import { measureSideOrRefuse } from '../src/workers/grading/measure-side-task.ts';
import { decodeImage, findSlabLabel, findSlabLabelInPhoto, measureSideWithPicture } from '../src/vision/index.ts';

const labelsSchema = z.array(
  z.object({
    file: z.string(),
    company: z.string(),
    grade: z.number(),
    descriptor: z.string().optional(),
    labelInFrame: z.boolean(),
  }),
);
type Truth = z.infer<typeof labelsSchema>[number];

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.resolve(process.argv[2] ?? path.join(repoRoot, '../shared/graded'));
const truths = labelsSchema.parse(JSON.parse(await readFile(path.join(dir, 'labels.json'), 'utf8')));
const verbose = process.argv.includes('--text');

/** As the API decodes: the same pixel budget. */
const MAX_PIXELS = 60_000_000;
/** A PSA holder's well: the card is 6–20 mm below the label's foot; these two ends are simulated. */
const CARD_GAPS_MM = [6, 16] as const;
/** The simulated card is inset this much from the holder outline's sides (a holder is a little wider than its card). */
const CARD_SIDE_INSET_MM = 3;

type Mode = 'outline' | `card +${number} mm`;
const MODES: Mode[] = ['outline', ...CARD_GAPS_MM.map((gap) => `card +${gap} mm` as const)];

/** A card-sized outline inside `quad` (read as a card's), its top `gapMm` below the quad's top. */
function cardOutlineBelow(quad: readonly Point[], gapMm: number): Point[] {
  const h = homographyFromPoints(CARD_CORNERS_MM, quad);
  const width = CARD_WIDTH_MM - 2 * CARD_SIDE_INSET_MM;
  const height = (width * CARD_HEIGHT_MM) / CARD_WIDTH_MM;
  const corners = [
    [CARD_SIDE_INSET_MM, gapMm],
    [CARD_SIDE_INSET_MM + width, gapMm],
    [CARD_SIDE_INSET_MM + width, gapMm + height],
    [CARD_SIDE_INSET_MM, gapMm + height],
  ] as const;
  return corners.map(([x, y]) => {
    const w = h[6]! * x + h[7]! * y + h[8]!;
    return { x: (h[0]! * x + h[1]! * y + h[2]!) / w, y: (h[3]! * x + h[4]! * y + h[5]!) / w };
  });
}

const describe = (label: SlabLabel | null) => (label === null ? '—' : `${label.company} ${label.grade ?? ''} ${label.descriptor ?? ''} · ${label.cert ?? 'no cert'}`.replace(/\s+/g, ' '));
const right = (label: SlabLabel | null, truth: Truth) => label !== null && label.company === truth.company && label.grade === truth.grade;
/** labels.json writes the descriptor with its grade ("GEM-MT 10"); compared without it, dashes and spaces alike. */
const sameWords = (a: string) => a.replace(/\s*\d+(\.5)?$/, '').replace(/[-\s]+/g, ' ').trim();
const descriptorRight = (label: SlabLabel | null, truth: Truth) => label?.descriptor != null && truth.descriptor !== undefined && sameWords(label.descriptor) === sameWords(truth.descriptor);

const reader = createSlabLabelReader({ onText: verbose ? (part, text) => console.log(`    ${part}: ${JSON.stringify(text)}`) : undefined });
/** How long each label found took to read (OCR and parsing), seconds. */
const readSeconds: number[] = [];
const tally = Object.fromEntries(MODES.map((mode) => [mode, { inFrame: 0, right: 0, rightWhenRefused: 0, descriptorRight: 0, falseReads: 0, outOfFrame: 0, refused: 0 }]));
try {
  for (const truth of truths) {
    const bytes = new Uint8Array(await readFile(path.join(dir, truth.file)));
    const expected = truth.labelInFrame ? `${truth.company} ${truth.grade} ${truth.descriptor ?? ''}` : 'no label';
    const output = await measureSideOrRefuse({ bytes, side: 'front', maxPixels: MAX_PIXELS, maxSide: MEASURE_MAX_SIDE });
    const cells: string[] = [];
    for (const mode of MODES) {
      const counts = tally[mode]!;
      if (truth.labelInFrame) counts.inFrame++;
      else counts.outOfFrame++;
      let label = output.ok && mode === 'outline' ? output.label : null;
      if (!output.ok) {
        // Refused, so no grade and no label in the API; what the label alone would give, counted apart.
        counts.refused++;
        label = findSlabLabelInPhoto(await decodeImage(bytes, { maxPixels: MAX_PIXELS, maxSide: MEASURE_MAX_SIDE }));
      } else if (mode !== 'outline') {
        // The simulated card outline, on the same decode as the engine's first attempt.
        const image = await decodeImage(bytes, { maxPixels: MAX_PIXELS, maxSide: MEASURE_MAX_SIDE });
        const quad = measureSideWithPicture(image, 'front').measurement.quad;
        label = findSlabLabel(image, cardOutlineBelow(quad, Number(mode.replace(/\D/g, ''))));
      }
      const started = performance.now();
      const read = label === null ? null : await reader.read(label);
      if (label !== null) readSeconds.push((performance.now() - started) / 1000);
      if (truth.labelInFrame && right(read, truth)) counts[output.ok ? 'right' : 'rightWhenRefused']++;
      if (truth.labelInFrame && output.ok && descriptorRight(read, truth)) counts.descriptorRight++;
      if (!truth.labelInFrame && read !== null) counts.falseReads++;
      const verdict = truth.labelInFrame ? (right(read, truth) ? 'right' : label === null ? 'NO LABEL FOUND' : 'WRONG') : read === null ? 'right' : 'FALSE READ';
      cells.push(`${mode}: ${output.ok ? '' : `refused (${output.code}), from the photo alone: `}${describe(read)} (${verdict})`);
    }
    console.log(`${truth.file}  expected ${expected}\n  ${cells.join('\n  ')}`);
  }
} finally {
  await reader.close();
}

console.log('\nsummary (grader and grade read right, of photos with the label in frame; false reads, of photos without)');
for (const mode of MODES) {
  const t = tally[mode]!;
  const share = (count: number) => (t.inFrame === 0 ? 0 : (100 * count) / t.inFrame).toFixed(0);
  console.log(
    `  ${mode.padEnd(12)} read right ${t.right}/${t.inFrame} (${share(t.right)}%); with the labels of refused photos read from the photo alone ` +
      `${t.right + t.rightWhenRefused}/${t.inFrame} (${share(t.right + t.rightWhenRefused)}%); descriptor right ${t.descriptorRight}/${t.inFrame}; ` +
      `false reads ${t.falseReads}/${t.outOfFrame}; photos refused ${t.refused}`,
  );
}
const sorted = [...readSeconds].sort((a, b) => a - b);
if (sorted.length > 0) console.log(`  reading a label found: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} s, slowest ${sorted.at(-1)!.toFixed(2)} s (${sorted.length} readings)`);
