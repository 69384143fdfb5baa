// npm run bench:graded -- [DIR] [--fresh]: the engine held against PSA (GRADING.md §2b, issue 30). Grades every photo
// of DIR/labels.json (default ../shared/graded beside the project) through the gradeCard service the API uses (a CPU
// pool of 2 threads, the slab label reader, no identification), then prints a table per photo and, at the end, per
// photo set, per label-in-frame or not, and overall: graded and refused (with codes); Spearman ρ, exact, within one,
// within two and mean |Δ| of the PSA estimate and of the engine's own overall grade against PSA's, beside the best
// constant guess; the mean engine grade per PSA grade; labels read right.
// Measurements are cached under .cache/graded by photo hash and engine version (--fresh measures again), so a
// rerun after a change to the domain (tables, calibration) takes a second. Refused photos count as refused, not in ρ.
import path from 'node:path';
import type { CardGrade } from '../src/contracts/grading.ts';
import { gradeCard as gradeMeasuredCard } from '../src/domain/grading/index.ts';
import { PSA_CALIBRATION } from '../src/domain/grading/psa-calibration.ts';
import type { AgreementFigures } from '../src/domain/grading/statistics.ts';
import { agreementFigures, bestConstantGuess } from '../src/domain/grading/statistics.ts';
import type { GradedPhoto } from './graded-photos.ts';
import { DEFAULT_GRADED_DIR, measureGradedPhotos } from './graded-photos.ts';

const args = process.argv.slice(2);
const fresh = args.includes('--fresh');
const dir = path.resolve(args.find((a) => !a.startsWith('--')) ?? DEFAULT_GRADED_DIR);

const started = performance.now();
const { photos, engine } = await measureGradedPhotos(dir, { fresh });
const seconds = (performance.now() - started) / 1000;

interface Row {
  photo: GradedPhoto;
  grade?: CardGrade;
}
const rows: Row[] = photos.map((photo) => (photo.measured.ok ? { photo, grade: gradeMeasuredCard({ front: photo.measured.front }) } : { photo }));

const f2 = (value: number | null) => (value === null ? '  -  ' : value.toFixed(2).padStart(5));
const pct = (value: number) => `${Math.round(value * 100)}%`.padStart(4);

// ---- per photo -------------------------------------------------------------------------------------------------
console.log(`bench:graded ${dir}: ${photos.length} photos, engine ${engine}, ${seconds.toFixed(1)} s (${photos.filter((p) => p.fromCache).length} from cache)`);
console.log(`calibration: fitted ${PSA_CALIBRATION.provenance.date} on engine ${PSA_CALIBRATION.provenance.engineVersion}${PSA_CALIBRATION.provenance.engineVersion === engine ? '' : ' (not this engine: refit with npm run fit:grades)'}`);
console.log('\nfile                                      PSA  estimate (range) conf tell | overall  cen  cor  edg  sur | px/mm | refusal');
for (const { photo, grade } of rows) {
  const name = photo.label.file.slice(0, 40).padEnd(40);
  const psa = String(photo.label.grade).padStart(4);
  if (!grade || !photo.measured.ok) {
    console.log(`${name} ${psa}  ${''.padEnd(28)}|${''.padEnd(27)}|       | ${photo.measured.ok ? '' : photo.measured.refusal}`);
    continue;
  }
  const e = grade.psaEstimate!;
  const estimate = `${e.grade.toFixed(1).padStart(4)} (${e.low.toFixed(1)}–${e.high.toFixed(1)})`.padEnd(16);
  const g = grade.grades;
  const sub = (v: number | null) => (v === null ? '  - ' : v.toFixed(1).padStart(4));
  console.log(
    `${name} ${psa}  ${estimate} ${e.confidence.toFixed(2)} ${e.canTell ? 'yes ' : 'no  '}| ${grade.overallGrade.toFixed(1).padStart(7)} ${sub(g.centering)} ${sub(g.corners)} ${sub(g.edges)} ${sub(g.surface)} | ${photo.measured.front.quality.sourcePxPerMm.toFixed(1).padStart(5)} |`,
  );
}

// ---- per grade ---------------------------------------------------------------------------------------------------
console.log('\nmean engine grades per PSA grade (graded photos):');
console.log('  PSA  n  overallGrade  psaEstimate');
for (const psa of [...new Set(rows.map((r) => r.photo.label.grade))].sort((a, b) => a - b)) {
  const graded = rows.filter((r) => r.photo.label.grade === psa && r.grade);
  const avg = (pick: (g: CardGrade) => number) => (graded.length === 0 ? '-' : (graded.reduce((s, r) => s + pick(r.grade!), 0) / graded.length).toFixed(2));
  console.log(`  ${String(psa).padStart(3)} ${String(graded.length).padStart(2)}  ${avg((g) => g.overallGrade).padStart(12)}  ${avg((g) => g.psaEstimate!.grade).padStart(11)}`);
}

// ---- summary, last so a tail shows it ----------------------------------------------------------------------------
function figuresLine(name: string, f: AgreementFigures): string {
  return `    ${name.padEnd(22)} ρ ${f2(f.spearman)}  exact ${pct(f.exact)}  ±1 ${pct(f.withinOne)}  ±2 ${pct(f.withinTwo)}  mean|Δ| ${f.meanAbsError.toFixed(2)}`;
}

function summarise(title: string, subset: Row[]): void {
  const graded = subset.filter((r) => r.grade);
  const refusals = new Map<string, number>();
  for (const r of subset) if (!r.photo.measured.ok) refusals.set(r.photo.measured.refusal, (refusals.get(r.photo.measured.refusal) ?? 0) + 1);
  const refusedText = [...refusals].map(([code, n]) => `${code} ${n}`).join(', ');
  console.log(`  ${title}: ${subset.length} photos, graded ${graded.length} (${pct(subset.length === 0 ? 0 : graded.length / subset.length).trim()}), refused ${subset.length - graded.length}${refusedText ? ` (${refusedText})` : ''}`);
  // Issue 30's target counts photos with the card whole at 4.5 px/mm or more: a card_too_small refusal is right.
  const eligible = subset.filter((r) => r.photo.measured.ok || r.photo.measured.refusal !== 'card_too_small');
  console.log(`    of those with the card whole at ≥ 4.5 px/mm: graded ${graded.length}/${eligible.length} (${pct(eligible.length === 0 ? 0 : graded.length / eligible.length).trim()})`);
  if (graded.length === 0) return;
  const truths = graded.map((r) => r.photo.label.grade);
  const told = graded.filter((r) => r.grade!.psaEstimate!.canTell);
  console.log(figuresLine('psaEstimate', agreementFigures(graded.map((r) => r.grade!.psaEstimate!.grade), truths)));
  console.log(figuresLine('engine overallGrade', agreementFigures(graded.map((r) => r.grade!.overallGrade), truths)));
  const constant = bestConstantGuess(truths);
  console.log(figuresLine(`best constant (${constant})`, agreementFigures(truths.map(() => constant), truths)));
  const inRange = graded.filter((r) => r.photo.label.grade >= r.grade!.psaEstimate!.low && r.photo.label.grade <= r.grade!.psaEstimate!.high).length;
  console.log(`    PSA in the estimate's range ${pct(inRange / graded.length).trim()}; says it can tell on ${told.length}${told.length > 0 ? `, there ±1 ${pct(agreementFigures(told.map((r) => r.grade!.psaEstimate!.grade), told.map((r) => r.photo.label.grade)).withinOne).trim()}` : ''}`);
  const labelled = subset.filter((r) => r.photo.label.labelInFrame);
  if (labelled.length > 0) {
    const read = labelled.filter((r) => r.photo.measured.ok && r.photo.measured.slabLabel !== null);
    const right = read.filter((r) => r.photo.measured.ok && r.photo.measured.slabLabel?.company === r.photo.label.company && r.photo.measured.slabLabel.grade === r.photo.label.grade);
    console.log(`    labels read right ${right.length}/${labelled.length} (read ${read.length}, refused photos count as unread)`);
  }
}

const sets = [...new Set(rows.map((r) => r.photo.set))].sort();
console.log(`\nsummary (the calibration was fitted on ${PSA_CALIBRATION.provenance.fittedOn.map((s) => s.set).join(', ') || 'nothing'}: on those photos psaEstimate is in-sample;`);
console.log(`  its leave-one-out figures: ρ ${f2(PSA_CALIBRATION.crossValidated.estimate.spearman).trim()}, ±1 ${pct(PSA_CALIBRATION.crossValidated.estimate.withinOne).trim()}, mean|Δ| ${PSA_CALIBRATION.crossValidated.estimate.meanAbsError} against the constant's ${PSA_CALIBRATION.crossValidated.constantGuess.meanAbsError})`);
for (const set of sets) summarise(`set ${set}`, rows.filter((r) => r.photo.set === set));
summarise('label in frame', rows.filter((r) => r.photo.label.labelInFrame));
summarise('no label in frame', rows.filter((r) => !r.photo.label.labelInFrame));
summarise('all', rows);
