import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradedCardSchema } from '../../src/contracts/grading.ts';
import { renderSyntheticCard } from '../../src/vision/index.ts';

// `npm run grade -- front.jpg [back.jpg] [--out dir] [--no-identify]`, run as a person runs it.

/** A card in a PSA slab, its label in PSA's layout (no "PSA" printed: the logo is a graphic). */
const PSA_SLAB = { layout: 'psa', company: 'PSA', gradeText: 'NM-MT', grade: '8', cert: '70496954', year: '2005 POKEMON JAPANESE', name: 'MEW EX - HOLO', number: '#003', variety: 'HOLON PHANTOM' } as const;

const run = promisify(execFile);
const script = path.resolve('scripts/grade.ts');
let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'grade-cli-'));
  await writeFile(path.join(directory, 'front.jpg'), await renderSyntheticCard({ photo: { noise: 2 } }, 31));
  await writeFile(path.join(directory, 'back.jpg'), await renderSyntheticCard({ photo: { noise: 2 } }, 32));
  await writeFile(path.join(directory, 'notes.txt'), 'not a photo');
  await writeFile(path.join(directory, 'slab.jpg'), await renderSyntheticCard({ pxPerMm: 12, borderColor: '#e8c33a', lettering: { name: 'Mew' }, photo: { noise: 2, slab: PSA_SLAB } }, 33));
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

  it('given a card in a PSA slab, answers as the API does: professionally graded, the label its official grade, the estimate its own', async () => {
    const args = [script, path.join(directory, 'slab.jpg'), '--out', path.join(directory, 'slab-out'), '--no-identify'];
    const { stdout } = await run(process.execPath, args, { timeout: 90_000 });
    const card = gradedCardSchema.parse(JSON.parse(stdout));
    expect(card.isGraded).toBe(true);
    expect(card.slabLabel).toEqual({ company: 'PSA', grade: 8, descriptor: 'NM-MT', cert: '70496954' });
    // The engine's grade is measured from the card (a clean drawn card), not taken from the label.
    expect(card.overallGrade).toBeGreaterThan(8);
  });

  it('given a raw card, answers that it is not professionally graded', async () => {
    const { stdout } = await run(process.execPath, [script, path.join(directory, 'front.jpg'), '--out', path.join(directory, 'raw-out'), '--no-identify'], { timeout: 60_000 });
    const card = gradedCardSchema.parse(JSON.parse(stdout));
    expect(card.isGraded).toBe(false);
    expect(card.slabLabel).toBeUndefined();
    // The format found from the card's outline, as the API answers it (issue 30).
    expect(card.cardFormat).toMatchObject({ id: 'standard', widthMm: 63, heightMm: 88 });
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
