import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Database } from '../../src/infra/database/index.ts';
import type { EventStore } from '../../src/infra/event-store/index.ts';
import { asyncProjections, inlineProjections } from '../../src/projections/index.ts';
import { projectionStatus, startProjectionRunners, type RebuildTarget } from '../../src/projections/runner/index.ts';

// What the suites that hold every read model against a rebuild of the log share: every projection as a rebuild
// target, every read-model table's rows, and the async projections brought up to the end of the log.

export const everyProjection: RebuildTarget[] = [
  ...inlineProjections.map((projection) => ({ projection, kind: 'inline' as const })),
  ...asyncProjections.map((projection) => ({ projection, kind: 'async' as const })),
];

/** Every read-model table's rows, by table, in a stable order. */
export async function readModels(database: Database): Promise<Record<string, unknown[]>> {
  const tables: Record<string, unknown[]> = {};
  for (const { projection } of everyProjection) {
    for (const table of projection.tables) tables[table] = (await sql`select * from ${sql.id(table)} order by 1, 2`.execute(database.db)).rows;
  }
  return tables;
}

/** Runs the async projections until they have applied the whole log, then stops them. */
export async function catchUpAsyncProjections(database: Database, store: EventStore, timeout = 15_000): Promise<void> {
  const stop = await startProjectionRunners(database, store, asyncProjections, { pollIntervalMs: 20 });
  try {
    await expect
      .poll(async () => (await projectionStatus(database.db, { inline: [], async: asyncProjections })).map((s) => s.lag), { timeout, interval: 20 })
      .toEqual(asyncProjections.map(() => 0));
  } finally {
    await stop();
  }
}
