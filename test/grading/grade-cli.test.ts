import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradedCardSchema } from '../../src/contracts/grading.ts';
import { renderSyntheticCard } from '../../src/vision/index.ts';

// `npm run grade -- front.jpg [back.jpg] [--out dir] [--no-identify]`, run as a person runs it.

const run = promisify(execFile);
const script = path.resolve('scripts/grade.ts');
let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'grade-cli-'));
  await writeFile(path.join(directory, 'front.jpg'), await renderSyntheticCard({ photo: { noise: 2 } }, 31));
  await writeFile(path.join(directory, 'back.jpg'), await renderSyntheticCard({ photo: { noise: 2 } }, 32));
  await writeFile(path.join(directory, 'notes.txt'), 'not a photo');
});
afterAll(() => rm(directory, { recursive: true, force: true }));

describe('npm run grade', () => {
  it('prints the graded card as JSON and writes an annotated PNG per side', async () => {
    const out = path.join(directory, 'out');
    const args = [script, path.join(directory, 'front.jpg'), path.join(directory, 'back.jpg'), '--out', out, '--no-identify'];
    const { stdout } = await run(process.execPath, args, { timeout: 60_000 });
    const card = gradedCardSchema.parse(JSON.parse(stdout));
    expect(card.backGrades).toBeDefined();
    for (const name of ['front.annotated.png', 'back.annotated.png']) {
      const png = await readFile(path.join(out, name));
      expect(png.subarray(1, 4).toString()).toBe('PNG');
    }
  });

  it('exits with status 2 and the error code when a photo cannot be graded', async () => {
    const failure = await run(process.execPath, [script, path.join(directory, 'notes.txt'), '--no-identify'], { timeout: 60_000 }).then(
      () => null,
      (error: { code: number; stdout: string }) => error,
    );
    expect(failure?.code).toBe(2);
    expect(JSON.parse(failure!.stdout)).toEqual({ error: expect.any(String), code: 'not_an_image' });
  });
});
