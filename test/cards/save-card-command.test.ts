import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCardIds } from '../../src/commands/cards/card-ids.ts';
import { gradeCard, type GradeCardDeps } from '../../src/commands/cards/grade-card.ts';
import { gradeAndSaveCard } from '../../src/commands/cards/save-card.ts';
import { createEventStore } from '../../src/infra/event-store/index.ts';
import { createFileImageStore } from '../../src/infra/image-storage/index.ts';
import { inlineProjections } from '../../src/projections/index.ts';
import { samplePhoto } from '../http/cards-harness.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { gradedCard } from './graded-card-fixture.ts';

// Who put a card in the collection (gradeAndSaveCard's savedByCommand): a bulk import counts as imported only the row
// whose command saved the card. Two rows of the same photos at two addresses are worked on at once, and the one that
// graded the card is not always the one that saves it first: the other must then be the duplicate, not a second
// import (the crash test once saw 13 cards imported of 12 distinct photos).

describe('saving a card by its photos', () => {
  let database: TestDatabase;
  let imagesDir: string;
  let deps: GradeCardDeps;
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    imagesDir = mkdtempSync(path.join(tmpdir(), 'save-card-'));
    const annotated = new Uint8Array(await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } }).png().toBuffer());
    deps = {
      store: createEventStore(database, { inline: inlineProjections }),
      imageStore: createFileImageStore(imagesDir),
      cardIds: createCardIds(database.db),
      gradePhotos: async () => ({ card: gradedCard(), annotated: { front: annotated }, engine: { vision: 'test-vision', calibration: 'test-calibration' } }),
    };
  });
  afterAll(async () => {
    await database?.destroy();
    rmSync(imagesDir, { recursive: true, force: true });
  });

  const input = async (commandId: string) => ({
    owner: 'user:7d3f0a52-2f7e-4c1e-9a55-0c6b1f2a9e01' as const,
    cardType: 'pokemon',
    front: { bytes: await samplePhoto(1), sourceUrl: null },
    back: null,
    metadata: { actor: { kind: 'user' as const, id: '7d3f0a52-2f7e-4c1e-9a55-0c6b1f2a9e01' }, commandId, timestamp: '2026-03-01T12:00:00.000Z' },
  });

  it('names the command that saved the card: this one, its own retry, or the other one that saved it first', async () => {
    // Row A grades the card; row B, the same photos, finds it graded and saves it before A does.
    const graded = await gradeCard(deps, await input('row-a'));
    expect(graded.graded).toBe(true);
    const b = await gradeAndSaveCard(deps, await input('row-b'));
    expect(b).toMatchObject({ cardId: graded.cardId, graded: false, saved: true, savedByCommand: 'row-b' });
    // A goes on to save: already saved, by B. A is the duplicate.
    const a = await gradeAndSaveCard(deps, await input('row-a'));
    expect(a).toMatchObject({ cardId: graded.cardId, graded: false, saved: false, savedByCommand: 'row-b' });
    // B run again (a job retried after a crash) finds its own save.
    expect(await gradeAndSaveCard(deps, await input('row-b'))).toMatchObject({ saved: false, savedByCommand: 'row-b' });
  });
});
