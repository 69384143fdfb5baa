import { readdir, readFile } from 'node:fs/promises';
import type { Owner } from '../../domain/accounts/identity.ts';
import type { EventMetadata } from '../../infra/event-store/types.ts';
import type { GradeCardDeps, GradeCardOutcome } from './grade-card.ts';
import { gradeAndSaveCard } from './save-card.ts';

// A handful of sample cards shipped with the app (assets/sample-cards, drawn once by the synthetic generator),
// graded by the engine and saved into the caller's collection marked as samples, for an empty collection to show
// what a graded card looks like: they count for no leaderboard place and no achievement. Each is an ordinary
// GradeCard and SaveCard, so restoring twice gives the same cards, and a deleted one comes back.

export const SAMPLE_CARDS_DIR = new URL('../../../assets/sample-cards/', import.meta.url);

export async function sampleCardFiles(): Promise<string[]> {
  return (await readdir(SAMPLE_CARDS_DIR)).filter((name) => name.endsWith('.jpg')).sort();
}

export async function restoreSampleCards(deps: GradeCardDeps, input: { owner: Owner; metadata: EventMetadata }): Promise<GradeCardOutcome[]> {
  const files = await sampleCardFiles();
  // All at once: the grading service spreads the pixel work over the CPU pool.
  return Promise.all(
    files.map(async (file) =>
      gradeAndSaveCard(deps, {
        sample: true,
        owner: input.owner,
        cardType: 'pokemon',
        front: { bytes: await readFile(new URL(file, SAMPLE_CARDS_DIR)), sourceUrl: null },
        back: null,
        // One command per card: each append is its own, retried on its own.
        metadata: { ...input.metadata, commandId: `${input.metadata.commandId}:${file}` },
      }),
    ),
  );
}
