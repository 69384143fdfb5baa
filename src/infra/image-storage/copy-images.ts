import { createHash } from 'node:crypto';
import { opendir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { isImageHash, type ImageStore } from './image-store.ts';

// Copies a files-mode image folder (DATA_DIR/images: ab/cd/abcd…) into another image store, a bucket above all.
// Idempotent and so resumable: every put asks first and writes nothing for an image already there, so a copy that
// stopped half-way (a crash, the store down, ^C) is finished by running it again. Each file's bytes are checked
// against its name on the way: a damaged file is reported and left behind, never copied under a hash it does not have.

export interface CopyReport {
  copied: number;
  /** Already in the target: nothing written. */
  present: number;
  /** Files left behind, with the reason (damaged, not an image's file). */
  skipped: { file: string; reason: string }[];
}

/** Every file under `dir`, depth first, without holding a whole listing in memory. */
async function* filesUnder(dir: string): AsyncGenerator<string> {
  let entries;
  try {
    entries = await opendir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for await (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

export async function copyImages(options: {
  fromDir: string;
  to: ImageStore;
  concurrency?: number;
  /** Called after every `every` files with the counts so far. */
  onProgress?: (report: CopyReport) => void;
  every?: number;
}): Promise<CopyReport> {
  const report: CopyReport = { copied: 0, present: 0, skipped: [] };
  const files = filesUnder(options.fromDir);
  let seen = 0;
  const every = options.every ?? 1000;

  async function copyOne(file: string): Promise<void> {
    const name = path.basename(file);
    // Temporary files of a write in progress (…hash.random.tmp) and anything foreign are not images of the store.
    if (!isImageHash(name)) {
      if (!name.endsWith('.tmp')) report.skipped.push({ file, reason: 'not an image of the store (its name is not a SHA-256)' });
      return;
    }
    const bytes = await readFile(file);
    if (createHash('sha256').update(bytes).digest('hex') !== name) {
      report.skipped.push({ file, reason: 'damaged: its bytes do not match its name' });
      return;
    }
    let stored;
    try {
      stored = await options.to.put(bytes);
    } catch (error) {
      if ((error as { code?: string }).code === 'image_type_unsupported') {
        report.skipped.push({ file, reason: 'not an image we accept' });
        return;
      }
      throw error;
    }
    if (stored.created) report.copied++;
    else report.present++;
  }

  // A few files at a time; the first failure (the target down) stops the copy, and running it again resumes.
  let failure: unknown;
  await Promise.all(
    Array.from({ length: options.concurrency ?? 8 }, async () => {
      while (failure === undefined) {
        const next = await files.next();
        if (next.done) return;
        try {
          await copyOne(next.value);
        } catch (error) {
          failure ??= error;
          return;
        }
        if (++seen % every === 0) options.onProgress?.(report);
      }
    }),
  );
  if (failure !== undefined) throw Object.assign(failure as object, { report });
  return report;
}
