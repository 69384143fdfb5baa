// npm run bench:real -- [DIR]: the engine on real photos. Grades every photo listed in DIR/labels.json (default
// ../shared/photos beside the project) through the same grading service the API uses (CPU pool, offline OCR), and
// prints, per photo, what was expected against what the engine said: graded or refused, resolution, centering
// against the hand measurement, the defects found against the known damage, the grade and condition, the card it
// identified. Then a summary of the rules the engine is held to on real photos (issue 9).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { AppError } from '../src/contracts/errors.ts';
import type { GradedCard } from '../src/contracts/grading.ts';
import type { SideMeasurement } from '../src/contracts/measurement.ts';
import { createCpuPool } from '../src/infra/cpu-pool/index.ts';
import { matchCard } from '../src/domain/catalog/index.ts';
import { shippedCatalog } from '../src/infra/catalog/index.ts';
import { createOcrIdentifier } from '../src/infra/identification/index.ts';
import { gradeCard } from '../src/workers/grading/index.ts';

const labelsSchema = z.object({
  photos: z.array(
    z.object({
      file: z.string(),
      side: z.enum(['front', 'back']),
      card: z.string(),
      expect: z.string(),
      condition: z.string(),
      centering: z.object({ left: z.number(), top: z.number(), tolerance: z.number() }).nullable(),
      damage: z.array(z.string()),
    }),
  ),
});
type Label = z.infer<typeof labelsSchema>['photos'][number];

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.resolve(process.argv[2] ?? path.join(repoRoot, '../shared/photos'));
const labels = labelsSchema.parse(JSON.parse(await readFile(path.join(dir, 'labels.json'), 'utf8'))).photos;

/** Near-mint cards must grade at least this, with no crease and no corner fray (issue 9). */
const NEAR_MINT_FLOOR = 8;
/** A miscut reads worse than this share on its axis. */
const MISCUT_SHARE = 75;

interface Row {
  label: Label;
  card?: GradedCard;
  refusal?: string;
  seconds: number;
}

const cpuPool = createCpuPool({ size: 2 });
const identifier = createOcrIdentifier();
const rows: Row[] = [];
try {
  for (const label of labels) {
    const bytes = new Uint8Array(await readFile(path.join(dir, label.file)));
    const started = performance.now();
    try {
      const { card } = await gradeCard({ front: bytes }, { cpuPool, identifier, maxPixels: 60_000_000 });
      rows.push({ label, card, seconds: (performance.now() - started) / 1000 });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      rows.push({ label, refusal: error.code, seconds: (performance.now() - started) / 1000 });
    }
  }
} finally {
  await identifier.close();
  await cpuPool.close();
}

const share = (first: number, second: number) => (100 * first) / (first + second);

function centeringText(m: SideMeasurement, label: Label): { text: string; within: boolean | null; worst: number | null } {
  if (!m.centering.measurable) return { text: `not measurable (${m.centering.reason})`, within: label.centering ? false : null, worst: null };
  const { horizontal, vertical } = m.centering;
  const left = share(horizontal.firstMm, horizontal.secondMm);
  const top = share(vertical.firstMm, vertical.secondMm);
  const worst = Math.max(horizontal.worstShare, vertical.worstShare);
  const measured = `L ${left.toFixed(0)} T ${top.toFixed(0)}`;
  if (!label.centering) return { text: measured, within: null, worst };
  const within = Math.abs(left - label.centering.left) <= label.centering.tolerance && Math.abs(top - label.centering.top) <= label.centering.tolerance;
  return { text: `${measured} vs L ${label.centering.left} T ${label.centering.top} ${within ? 'ok' : 'OFF'}`, within, worst };
}

function defectsText(m: SideMeasurement): string {
  const counts = new Map<string, number>();
  for (const d of m.defects) counts.set(d.kind, (counts.get(d.kind) ?? 0) + 1);
  const surfaceMarks = m.defects.filter((d) => d.kind === 'spot' && d.sizeMm >= 2).map((d) => `${d.sizeMm.toFixed(1)}`);
  const parts = [...counts].map(([kind, n]) => `${n} ${kind}`);
  if (surfaceMarks.length > 0) parts.push(`marks ≥ 2 mm: ${surfaceMarks.join(', ')} mm`);
  return parts.length === 0 ? 'none' : parts.join(', ');
}

const summary = { graded: 0, gradedExpected: 0, centering: 0, centeringLabelled: 0, nearMint: 0, nearMintCount: 0, miscut: 0, miscutCount: 0, identified: 0, identifiedCount: 0 };

/** The catalogue card a label names ("… Pikachu 58/102 …", "… Cleffa #31 …"), looked up as the app would; null for none. */
function expectedCatalogId(label: Label): string | null {
  if (!/pok[eé]mon/i.test(label.card)) return null;
  const named = /([A-Z][\w'.-]+) (?:#(\d+)|(\d+\/\d+))/.exec(label.card);
  if (!named) return null;
  return matchCard(shippedCatalog(), { names: [named[1]!], number: named[2] ?? named[3]! })?.card.id ?? null;
}
const nearMintOveralls: number[] = [];
const playedOveralls: number[] = [];
for (const { label, card, refusal, seconds } of rows) {
  const expected = label.expect === 'graded';
  console.log(`\n${label.file} (${label.side}, ${label.condition}; ${label.card})`);
  if (expected) summary.gradedExpected++;
  if (!card) {
    console.log(`  refused: ${refusal} (expected ${label.expect})  ${seconds.toFixed(1)} s`);
    if (label.condition === 'near mint') summary.nearMintCount++;
    continue;
  }
  if (expected) summary.graded++;
  const m = card.measurements.front;
  const centering = centeringText(m, label);
  if (label.centering) {
    summary.centeringLabelled++;
    if (centering.within) summary.centering++;
  }
  const miscut = /miscut/i.test(label.card);
  if (miscut) {
    summary.miscutCount++;
    if (centering.worst !== null && centering.worst > MISCUT_SHARE) summary.miscut++;
  }
  const hasCrease = m.defects.some((d) => d.kind === 'crease');
  const hasFray = m.defects.some((d) => d.kind === 'corner-fray');
  if (label.condition === 'near mint') {
    summary.nearMintCount++;
    nearMintOveralls.push(card.overallGrade);
    if (!hasCrease && !hasFray && card.overallGrade >= NEAR_MINT_FLOOR) summary.nearMint++;
  } else {
    playedOveralls.push(card.overallGrade);
  }
  const identified = card.identification.source === 'none' ? 'not identified' : `${card.cardName}${card.cardNumber ? ` ${card.cardNumber}` : ''}`;
  console.log(`  graded ${card.overallGrade.toFixed(1)} ${card.condition} (expected ${label.expect}, ${label.condition})  ${m.quality.sourcePxPerMm} px/mm  confidence ${card.confidence}  ${seconds.toFixed(1)} s`);
  console.log(`  subgrades: centering ${card.grades.centering} corners ${card.grades.corners} edges ${card.grades.edges} surface ${card.grades.surface}${hasCrease ? '  CREASE' : ''}`);
  console.log(`  centering: ${centering.text}${miscut ? ` (miscut: worst ${centering.worst?.toFixed(0) ?? '-'} ${centering.worst !== null && centering.worst > MISCUT_SHARE ? 'ok' : 'OFF'})` : ''}`);
  console.log(`  defects: ${defectsText(m)}`);
  console.log(`  known damage: ${label.damage.length === 0 ? 'none' : label.damage.join('; ')}`);
  console.log(`  card: ${identified}`);
  const expectedId = expectedCatalogId(label);
  const found = card.identification.catalogId;
  if (expectedId) {
    summary.identifiedCount++;
    if (found === expectedId) summary.identified++;
  }
  console.log(
    `  catalogue: ${found ? `${found} (confidence ${card.identification.catalogConfidence}), ${card.rarity ?? 'no rarity'}, ${card.identification.cardYear}` : 'not matched'}${expectedId ? `; expected ${expectedId} ${found === expectedId ? 'ok' : 'OFF'}` : ''}`,
  );
  if (found) console.log(`  facts: ${card.cardFacts}`);
}

const playedBelow = playedOveralls.length === 0 || nearMintOveralls.length === 0 || Math.max(...playedOveralls) < Math.min(...nearMintOveralls);
console.log('\nsummary');
console.log(`  graded as expected:            ${summary.graded}/${summary.gradedExpected}`);
console.log(`  centering within tolerance:    ${summary.centering}/${summary.centeringLabelled}`);
console.log(`  miscuts worse than 75/25:      ${summary.miscut}/${summary.miscutCount}`);
console.log(`  near mint: no crease, no fray, ≥ ${NEAR_MINT_FLOOR}: ${summary.nearMint}/${summary.nearMintCount}`);
console.log(`  identified as the label's card: ${summary.identified}/${summary.identifiedCount}`);
console.log(`  played below every near-mint:  ${playedBelow ? 'yes' : 'no'} (played ${playedOveralls.map((g) => g.toFixed(1)).join(', ') || '-'}; near mint ${nearMintOveralls.map((g) => g.toFixed(1)).join(', ') || '-'})`);
