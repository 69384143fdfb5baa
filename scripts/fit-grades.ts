// npm run fit:grades -- [DIR] [--fresh] [--dry-run] [--against ENGINE]: fits the PSA estimate (GRADING.md §2b) on the professionally
// graded photos of DIR/labels.json (default ../shared/graded), cross-validates it leave-one-out, prints the figures
// and rewrites src/domain/grading/psa-calibration.ts (not with --dry-run). Photos are measured through the gradeCard
// service (cached by photo hash and engine version under .cache/graded; --fresh measures again). Refused photos
// take no part. The fit and its figures are pure (src/domain/grading/fit-psa-estimate.ts), so the same measurements
// always give the same file but for its date. Each run keeps its leave-one-out estimates under .cache/fit-grades by
// engine version; --against an earlier engine version (or a prefix of it) compares the two on the photos both graded,
// with bootstrap intervals of the differences, so a change to the engine is judged against chance, not by its sign.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { measureGradedPhotos, DEFAULT_GRADED_DIR, repoRoot } from '../bench/graded-photos.ts';
import type { GradedPhoto } from '../bench/graded-photos.ts';
import { gradeSide } from '../src/domain/grading/side-grades.ts';
import type { FitRow } from '../src/domain/grading/fit-psa-estimate.ts';
import { crossValidateWholeFit, fitPsaModel, MIN_PHOTOS_PER_STEP, RIDGE_LAMBDA } from '../src/domain/grading/fit-psa-estimate.ts';
import type { CalibrationFigures, PsaCalibration } from '../src/domain/grading/psa-estimate.ts';
import { FULL_DETAIL_PX_PER_MM, PSA_FEATURE_NAMES, sideFeatures, toHalfGrade } from '../src/domain/grading/psa-estimate.ts';
import type { AgreementFigures } from '../src/domain/grading/statistics.ts';
import { agreementFigures, bestConstantGuess, bootstrapInterval, mean, roundTo, spearman } from '../src/domain/grading/statistics.ts';

const args = process.argv.slice(2);
const fresh = args.includes('--fresh');
const dryRun = args.includes('--dry-run');
const againstAt = args.indexOf('--against');
const against = againstAt >= 0 ? args[againstAt + 1] : undefined;
if (againstAt >= 0 && (against === undefined || against.startsWith('--'))) throw new Error('--against needs an engine version (or the start of one)');
const dir = path.resolve(args.find((a, i) => !a.startsWith('--') && (againstAt < 0 || i !== againstAt + 1)) ?? DEFAULT_GRADED_DIR);
const ESTIMATES_DIR = path.join(repoRoot, '.cache/fit-grades');
const CALIBRATION_FILE = path.join(repoRoot, 'src/domain/grading/psa-calibration.ts');

const { photos, engine } = await measureGradedPhotos(dir, { fresh });
const graded = photos.filter((p): p is GradedPhoto & { measured: { ok: true } } => p.measured.ok);
if (graded.length < 10) throw new Error(`only ${graded.length} photos graded: too few to fit`);

const rows: FitRow[] = graded.map((p) => ({ features: sideFeatures(p.measured.front), truth: p.label.grade, pxPerMm: p.measured.front.quality.sourcePxPerMm }));
const { model, crossValidation } = fitPsaModel(rows);
const truths = rows.map((r) => r.truth);
const engineOverall = agreementFigures(
  graded.map((p) => gradeSide(p.measured.front).overall),
  truths,
);

const rounded = (f: AgreementFigures): CalibrationFigures => ({
  count: f.count,
  spearman: f.spearman === null ? null : roundTo(f.spearman, 3),
  exact: roundTo(f.exact, 3),
  withinOne: roundTo(f.withinOne, 3),
  withinTwo: roundTo(f.withinTwo, 3),
  meanAbsError: roundTo(f.meanAbsError, 3),
});

const sets = [...new Set(photos.map((p) => p.set))].sort();
const calibration: PsaCalibration = {
  provenance: {
    fittedOn: sets.map((set) => ({ set, photos: photos.filter((p) => p.set === set).length, graded: graded.filter((p) => p.set === set).length })),
    date: new Date().toISOString().slice(0, 10),
    engineVersion: engine,
    method:
      `npm run fit:grades on ${path.basename(dir)}/labels.json: PSA grade regressed on ${PSA_FEATURE_NAMES.length} wear features ` +
      `(${PSA_FEATURE_NAMES.join(', ')}) with every weight >= 0 (ridge, lambda ${RIDGE_LAMBDA} on standardised features), ` +
      `the weighted sum (wear score) mapped to PSA grades by isotonic regression (never rising, each step on at least ${MIN_PHOTOS_PER_STEP} photos); ` +
      `whether the measurements' leave-one-out estimates beat the constant guess, under and from ${FULL_DETAIL_PX_PER_MM} px/mm apart (a class whose did not answers the guess); ` +
      'range = 10th-90th percentile of the leave-one-out misses of what each class answers, confidence ceiling = their within-one share; ' +
      'figures leave-one-out against the best constant guess (the median grade of all the photos).',
  },
  model,
  crossValidated: {
    estimate: rounded(crossValidation.estimate),
    measurementsAlone: rounded(crossValidation.measurementsAlone),
    constantGuess: rounded(crossValidation.constantGuess),
    engineOverallGrade: rounded(engineOverall),
  },
};

const line = (name: string, f: AgreementFigures | CalibrationFigures) =>
  `  ${name.padEnd(26)} n ${String(f.count).padStart(3)}  ρ ${f.spearman === null ? '  -  ' : f.spearman.toFixed(2).padStart(5)}  exact ${(f.exact * 100).toFixed(0).padStart(3)}%  ±1 ${(f.withinOne * 100).toFixed(0).padStart(3)}%  ±2 ${(f.withinTwo * 100).toFixed(0).padStart(3)}%  mean|Δ| ${f.meanAbsError.toFixed(2)}`;

console.log(`fit:grades ${dir}: ${photos.length} photos, ${graded.length} graded, engine ${engine}`);
console.log('weights (wear score = Σ weight × feature):');
for (const name of PSA_FEATURE_NAMES) console.log(`  ${name.padEnd(18)} ${model.weights[name]}`);
console.log(`centering when not measurable: ${model.centeringWhenNotMeasurable}`);
console.log(`score → PSA: ${model.scoreToGrade.map(([s, g]) => `${s}→${g}`).join('  ')}`);
for (const [name, figures] of [['full detail', model.byResolution.fullDetail], ['coarse', model.byResolution.coarse]] as const) {
  console.log(
    `${name}: range (truth − estimate, 10%..90%) ${figures.below}..${figures.above}, within one ${figures.withinOne}, ` +
      `beats the constant guess: ${figures.beatsConstantGuess ? 'yes' : 'no (its estimates will say they cannot tell)'}`,
  );
}
/**
 * How far the leave-one-out figures of these photos could move on as many other photos from the same sources (90%
 * bootstrap intervals over the photos): of ρ, and of the margin by which the estimate's mean |Δ| is below `constant`'s.
 * A change to the engine that moves a figure by less than its interval's width is not yet told from chance.
 */
function uncertainty(index: readonly number[], constant: number): string {
  const estimates = index.map((i) => toHalfGrade(crossValidation.outOfFold[i]!));
  const setTruths = index.map((i) => truths[i]!);
  const rho = bootstrapInterval(index.length, (draw) => spearman(draw.map((k) => estimates[k]!), draw.map((k) => setTruths[k]!)));
  const margin = bootstrapInterval(index.length, (draw) => mean(draw.map((k) => Math.abs(constant - setTruths[k]!) - Math.abs(estimates[k]! - setTruths[k]!))));
  const interval = (i: { low: number; high: number } | null) => (i === null ? '-' : `${i.low.toFixed(2)} to ${i.high.toFixed(2)}`);
  return `    90% bootstrap intervals: ρ ${interval(rho)}; mean|Δ| below the constant's by ${interval(margin)}`;
}

console.log('leave-one-out, all graded photos:');
console.log(line('psaEstimate', crossValidation.estimate));
console.log(line('  measurements alone', crossValidation.measurementsAlone));
// Which classes answer the guess is chosen on these same photos; left out with each photo, the choice too:
console.log(line('  the whole fit left out', crossValidateWholeFit(rows)));
console.log(line('best constant (median)', crossValidation.constantGuess));
console.log(uncertainty(truths.map((_, i) => i), bestConstantGuess(truths)));
console.log(line('engine overallGrade', engineOverall));
for (const set of sets) {
  const index = graded.map((p, i) => (p.set === set ? i : -1)).filter((i) => i >= 0);
  if (index.length === 0) continue;
  const setTruths = index.map((i) => truths[i]!);
  const constant = bestConstantGuess(setTruths);
  console.log(`set ${set}:`);
  console.log(line('psaEstimate (leave-one-out)', agreementFigures(index.map((i) => toHalfGrade(crossValidation.outOfFold[i]!)), setTruths)));
  console.log(line(`constant of the set (${constant})`, agreementFigures(setTruths.map(() => constant), setTruths)));
  console.log(uncertainty(index, constant));
}

// ---- this engine's leave-one-out estimates kept, and compared with an earlier engine's ------------------------------
type KeptEstimates = { engine: string; byFile: Record<string, { estimate: number; truth: number }> };
const kept: KeptEstimates = { engine, byFile: {} };
graded.forEach((p, i) => {
  kept.byFile[p.label.file] = { estimate: toHalfGrade(crossValidation.outOfFold[i]!), truth: p.label.grade };
});
await mkdir(ESTIMATES_DIR, { recursive: true });
await writeFile(path.join(ESTIMATES_DIR, `${engine}.json`), JSON.stringify(kept));
if (against !== undefined) await compareWith(against);

/** This engine's leave-one-out figures against an earlier one's, on the photos both graded, per set and overall. */
async function compareWith(prefix: string): Promise<void> {
  const matches = (await readdir(ESTIMATES_DIR)).filter((f) => f.startsWith(prefix) && f.endsWith('.json'));
  if (matches.length !== 1) throw new Error(`--against ${prefix}: ${matches.length === 0 ? 'no kept estimates of that engine (run fit:grades on it first)' : `several engines match: ${matches.join(', ')}`}`);
  const earlier = JSON.parse(await readFile(path.join(ESTIMATES_DIR, matches[0]!), 'utf8')) as KeptEstimates;
  const both = Object.keys(kept.byFile).filter((file) => earlier.byFile[file] !== undefined);
  const onlyHere = Object.keys(kept.byFile).length - both.length;
  const onlyThere = Object.keys(earlier.byFile).length - both.length;
  console.log(`\nagainst engine ${earlier.engine}: ${both.length} photos graded by both (${onlyHere} only by this one, ${onlyThere} only by that one)`);
  for (const set of [undefined, ...sets]) {
    const files = both.filter((file) => set === undefined || file.startsWith(set));
    if (files.length < 2) continue;
    const truthsOf = files.map((f) => kept.byFile[f]!.truth);
    const now = files.map((f) => kept.byFile[f]!.estimate);
    const before = files.map((f) => earlier.byFile[f]!.estimate);
    const rho = (estimates: number[], draw: readonly number[]) => spearman(draw.map((k) => estimates[k]!), draw.map((k) => truthsOf[k]!));
    const meanError = (estimates: number[], draw: readonly number[]) => mean(draw.map((k) => Math.abs(estimates[k]! - truthsOf[k]!)));
    const all = files.map((_, k) => k);
    const rhoGain = (draw: readonly number[]) => {
      const [a, b] = [rho(now, draw), rho(before, draw)];
      return a === null || b === null ? null : a - b;
    };
    const errorGain = (draw: readonly number[]) => meanError(before, draw) - meanError(now, draw);
    const interval = (i: { low: number; high: number } | null) => (i === null ? '-' : `${i.low.toFixed(2)} to ${i.high.toFixed(2)}`);
    const point = (value: number | null) => (value === null ? '-' : `${value >= 0 ? '+' : ''}${value.toFixed(2)}`);
    console.log(
      `  ${(set ?? 'all').padEnd(4)} n ${String(files.length).padStart(3)}  ρ ${point(rhoGain(all))} (90%: ${interval(bootstrapInterval(files.length, rhoGain))})` +
        `  mean|Δ| lower by ${point(errorGain(all))} (90%: ${interval(bootstrapInterval(files.length, errorGain))})`,
    );
  }
}

const fileText = `// Written by \`npm run fit:grades\` (scripts/fit-grades.ts): do not edit by hand, refit instead (GRADING.md §2b).
// The PSA estimate's parameters (src/domain/grading/psa-estimate.ts), where they came from and how well they did on
// photos they were not fitted on. The photos themselves stay out of the repository.
import type { PsaCalibration } from './psa-estimate.ts';

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

export const PSA_CALIBRATION: PsaCalibration = deepFreeze(${JSON.stringify(calibration, null, 2)});
`;
if (dryRun) console.log('--dry-run: psa-calibration.ts left as it was');
else {
  await writeFile(CALIBRATION_FILE, fileText);
  console.log(`wrote ${path.relative(repoRoot, CALIBRATION_FILE)}`);
}
