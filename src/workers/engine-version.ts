import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EngineVersion } from '../contracts/professional-grades.ts';
import { PSA_CALIBRATION } from '../domain/grading/psa-calibration.ts';

// THE engine version (DESIGN.md §6: every grade records the engine that made it). The vision's version is a short
// hash of the code that turns photo bytes into measurements and a read label, the same hash the graded-photo bench
// caches by and `npm run fit:grades` writes into the calibration's provenance; the calibration's version is when it
// was fitted and on which vision. When the two vision hashes differ, the calibration was fitted on another engine.
// This file lives outside the hashed folders so that recording versions does not itself change the version.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The code that turns photo bytes into measurements and a read label; any change to it measures afresh. */
const ENGINE_SOURCES = ['src/vision', 'src/workers/grading', 'src/infra/identification', 'src/domain/grading/slab-label.ts', 'src/contracts/measurement.ts', 'src/contracts/grading.ts'];

async function filesUnder(relative: string): Promise<string[]> {
  const full = path.join(repoRoot, relative);
  if (relative.endsWith('.ts')) return [relative];
  const entries = await readdir(full, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.relative(repoRoot, path.join(e.parentPath, e.name)))
    .sort();
}

async function hashEngineSources(): Promise<string> {
  const hash = createHash('sha256');
  for (const source of ENGINE_SOURCES) {
    for (const file of await filesUnder(source)) {
      hash.update(file);
      hash.update(await readFile(path.join(repoRoot, file)));
    }
  }
  return hash.digest('hex').slice(0, 12);
}

let visionVersion: Promise<string> | undefined;

/** The vision's version: hashed once per process (the code does not change under a running process). */
export function visionEngineVersion(): Promise<string> {
  visionVersion ??= hashEngineSources();
  return visionVersion;
}

/** The calibration's version: the day it was fitted and the vision it was fitted on. */
export const CALIBRATION_VERSION = `${PSA_CALIBRATION.provenance.date}@${PSA_CALIBRATION.provenance.engineVersion}`;

export async function gradingEngineVersion(): Promise<EngineVersion> {
  return { vision: await visionEngineVersion(), calibration: CALIBRATION_VERSION };
}
