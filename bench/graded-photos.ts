// The professionally graded photos (../shared/graded, GRADING.md §2b) as bench:graded and fit:grades read them:
// labels.json parsed, each photo measured through the same gradeCard service the API uses (CPU pool of 2, the slab
// label reader, no identification), and what the photo measured to cached under .cache/graded (gitignored), keyed
// by the photo's hash and the engine's version, so a refit after a change to the domain's tables or the estimate
// costs seconds, and a change to the vision code measures afresh.
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { AppError } from '../src/contracts/errors.ts';
import { slabLabelSchema } from '../src/contracts/grading.ts';
import type { SlabLabel } from '../src/contracts/grading.ts';
import { sideMeasurementSchema } from '../src/contracts/measurement.ts';
import type { SideMeasurement } from '../src/contracts/measurement.ts';
import { createCpuPool } from '../src/infra/cpu-pool/index.ts';
import { createSlabLabelReader } from '../src/infra/identification/slab-label-reader.ts';
import { visionEngineVersion } from '../src/workers/engine-version.ts';
import { gradeCard } from '../src/workers/grading/index.ts';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_GRADED_DIR = path.join(repoRoot, '../shared/graded');
const CACHE_DIR = path.join(repoRoot, '.cache/graded');

/** The same pixel limit as bench:real: these photos are small, the limit only keeps a stray huge file out. */
const MAX_PIXELS = 60_000_000;
const POOL_THREADS = 2;

export const gradedLabelSchema = z.object({
  file: z.string(),
  company: z.string(),
  grade: z.number().min(1).max(10),
  descriptor: z.string().optional(),
  slab: z.boolean(),
  labelInFrame: z.boolean(),
  source: z.string(),
  notes: z.string().optional(),
});
export type GradedLabel = z.infer<typeof gradedLabelSchema>;

/** What one photo measured to: the engine's measurements and the label it read, or its refusal code. */
const measuredPhotoSchema = z.union([
  z.object({ ok: z.literal(true), front: sideMeasurementSchema, slabLabel: slabLabelSchema.nullable() }),
  z.object({ ok: z.literal(false), refusal: z.string() }),
]);
export type MeasuredPhoto = { ok: true; front: SideMeasurement; slabLabel: SlabLabel | null } | { ok: false; refusal: string };

export interface GradedPhoto {
  label: GradedLabel;
  /** The set a photo belongs to: its file's prefix ("wo_", "bm_"). */
  set: string;
  measured: MeasuredPhoto;
  fromCache: boolean;
}

export async function readGradedLabels(dir: string): Promise<GradedLabel[]> {
  return z.array(gradedLabelSchema).parse(JSON.parse(await readFile(path.join(dir, 'labels.json'), 'utf8')));
}

export function setOf(file: string): string {
  return /^([a-z0-9]+_)/i.exec(file)?.[1] ?? 'other';
}

export interface MeasureOptions {
  /** Measure every photo afresh, ignoring the cache (the cache is still rewritten). */
  fresh?: boolean;
  onPhoto?: (photo: GradedPhoto, index: number, total: number) => void;
}

/** Measures every photo of DIR/labels.json, two at a time on a pool of two threads, in the labels' order. */
export async function measureGradedPhotos(dir: string, options: MeasureOptions = {}): Promise<{ photos: GradedPhoto[]; engine: string }> {
  const labels = await readGradedLabels(dir);
  const engine = await visionEngineVersion();
  await mkdir(CACHE_DIR, { recursive: true });
  const cpuPool = createCpuPool({ size: POOL_THREADS });
  const labelReader = createSlabLabelReader();
  const photos: GradedPhoto[] = new Array(labels.length);
  let next = 0;
  let done = 0;
  async function measureOne(label: GradedLabel): Promise<GradedPhoto> {
    const bytes = new Uint8Array(await readFile(path.join(dir, label.file)));
    const key = `${createHash('sha256').update(bytes).digest('hex').slice(0, 24)}-${engine}.json`;
    const cacheFile = path.join(CACHE_DIR, key);
    if (!options.fresh) {
      const cached = await readFile(cacheFile, 'utf8').catch(() => null);
      // An entry the current contracts no longer read (a field added since) is measured again rather than trusted.
      const parsed = cached === null ? null : measuredPhotoSchema.safeParse(JSON.parse(cached));
      if (parsed?.success) return { label, set: setOf(label.file), measured: parsed.data as MeasuredPhoto, fromCache: true };
    }
    let measured: MeasuredPhoto;
    try {
      const { card } = await gradeCard({ front: bytes }, { cpuPool, labelReader, maxPixels: MAX_PIXELS });
      measured = { ok: true, front: card.measurements.front, slabLabel: card.slabLabel ?? null };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      measured = { ok: false, refusal: error.code };
    }
    await writeFile(cacheFile, JSON.stringify(measured));
    return { label, set: setOf(label.file), measured, fromCache: false };
  }
  async function lane(): Promise<void> {
    while (next < labels.length) {
      const index = next++;
      photos[index] = await measureOne(labels[index]!);
      options.onPhoto?.(photos[index], ++done, labels.length);
    }
  }
  try {
    await Promise.all(Array.from({ length: POOL_THREADS }, lane));
  } finally {
    await labelReader.close();
    await cpuPool.close();
  }
  return { photos, engine };
}
