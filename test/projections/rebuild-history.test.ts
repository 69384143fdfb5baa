import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventStore, type EventMetadata, type EventStore } from '../../src/infra/event-store/index.ts';
import { inlineProjections } from '../../src/projections/index.ts';
import { rebuildProjections } from '../../src/projections/runner/index.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/database.ts';
import { catchUpAsyncProjections, everyProjection, readModels as readModelsOf } from './every-read-model.ts';
import { mixedHistory } from './mixed-history.ts';

// Every projection rebuilt at once, in one read of the log, over a mixed history appended as the product appends it
// (inline projections in the append, async ones by their runners): the rebuilt read models equal the live ones, row
// for row, whether the replay's batches are small (rows written, forgotten and read back between them) or large.

const metadata: EventMetadata = { actor: { kind: 'system', id: 'test' }, commandId: 'c', timestamp: '2026-03-01T12:00:00.000Z' };

describe.each(await databaseKinds())('rebuilding every projection over a mixed history on %s', (kind) => {
  let database: TestDatabase;
  let store: EventStore;
  let appended = 0;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    store = createEventStore(database, { inline: inlineProjections });
    await mixedHistory(200, async (events) => {
      for (const event of events) {
        await store.append(event.streamId, event.streamType, [{ type: event.type, data: event.data, metadata }], { expected: 'any' });
        appended++;
      }
    });
  });
  afterAll(async () => {
    await database?.destroy();
  });

  const readModels = () => readModelsOf(database);

  it('has the async read models caught up', async () => {
    await catchUpAsyncProjections(database, store);
  });

  it.each([37, 5_000])('in batches of %i', async (batchSize) => {
    const live = await readModels();
    // Every kind of row is there to compare.
    for (const table of ['users', 'card_grades', 'price_history', 'card_collections', 'leaderboard', 'leaderboard_cards', 'user_achievements', 'achievement_counted_cards', 'portfolio_cards', 'portfolio_price_history']) {
      expect({ table, rows: live[table]!.length > 0 }).toEqual({ table, rows: true });
    }
    // Damage the live rows: the rebuild must come from the log.
    await sql`update card_grades set estimated_value = 'wrong'`.execute(database.db);
    await sql`delete from leaderboard_cards`.execute(database.db);

    expect(await rebuildProjections(database, store, everyProjection, { batchSize })).toEqual({ events: appended });
    const rebuilt = await readModels();
    for (const table of Object.keys(live)) expect({ table, rows: rebuilt[table] }).toEqual({ table, rows: live[table] });
  });
});
