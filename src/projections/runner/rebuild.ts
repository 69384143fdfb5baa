import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../infra/database/database.ts';
import type { Tables } from '../../infra/database/schema.ts';
import { checkpointOf, START, type Checkpoint, type EventStore, type Projection } from '../../infra/event-store/types.ts';
import { advanceCheckpoint, ensureSubscription } from './subscriptions.ts';

export interface RebuildOptions {
  /** Events per transaction while replaying. */
  batchSize?: number;
  onProgress?: (progress: { projection: string; events: number }) => void;
}

interface LiveTable {
  schema: string;
  name: string;
  /** Columns a copy can write: not dropped, not generated. */
  columns: string[];
}

const DEADLOCK = '40P01';
const SCRATCH_PREFIX = 'es_rebuild_';
/** A rebuild marks its scratch schema alive after every batch; one silent this long was cut off (a crash, a kill). */
export const ABANDONED_REBUILD_AFTER_MS = 5 * 60_000;

/** Marks a scratch schema as in use now (its comment holds the time), so no cleanup takes it for a leftover. */
async function markAlive(db: Kysely<Tables> | Transaction<Tables>, scratch: string): Promise<void> {
  await sql`comment on schema ${sql.id(scratch)} is ${sql.lit(`rebuild alive at ${Date.now()}`)}`.execute(db);
}

/**
 * Drops the scratch schemas of rebuilds that were cut off half-way (the process died before its own cleanup): those
 * not marked alive for `staleAfterMs`. Called before every rebuild and when an API process starts. A scratch schema
 * never marked (made by a version before the marks) is left alone: nothing tells whether its rebuild still runs.
 * Returns the schemas dropped.
 */
export async function dropAbandonedRebuilds(db: Kysely<Tables>, options: { staleAfterMs?: number; now?: number } = {}): Promise<string[]> {
  const staleAfterMs = options.staleAfterMs ?? ABANDONED_REBUILD_AFTER_MS;
  const now = options.now ?? Date.now();
  const { rows } = await sql<{ name: string; comment: string | null }>`
    select nspname as name, obj_description(oid, 'pg_namespace') as comment from pg_namespace
    where starts_with(nspname, ${SCRATCH_PREFIX})`.execute(db);
  const dropped: string[] = [];
  for (const { name, comment } of rows) {
    const aliveAt = /^rebuild alive at (\d+)$/.exec(comment ?? '')?.[1];
    if (aliveAt === undefined || now - Number(aliveAt) < staleAfterMs) continue;
    await sql`drop schema if exists ${sql.id(name)} cascade`.execute(db);
    dropped.push(name);
  }
  return dropped;
}

/**
 * Replays the whole log through one projection into fresh tables, in batches, then swaps them in.
 *
 * The fresh tables are `create table ... (like live including all)` in a scratch schema put first on the
 * search_path, so the projection writes them under their usual names while the live tables keep serving reads.
 * The swap is one short transaction: it locks the live tables (waiting out appends and batches that write them),
 * replays what came in meanwhile, then truncates the live tables and copies the rebuilt rows in. Copying rows
 * rather than renaming tables keeps everything else about the live tables as it is (foreign keys, triggers, grants,
 * sequences they own), which a rename swap would lose; the price is a copy under lock, short next to the replay.
 *
 * Returns how many events were replayed.
 */
export async function rebuildProjection(
  database: Database,
  store: EventStore,
  projection: Projection,
  kind: 'inline' | 'async',
  options: RebuildOptions = {},
): Promise<{ events: number }> {
  const { db } = database;
  const batchSize = options.batchSize ?? 1_000;
  const live = await resolveLiveTables(db, projection);
  const scratch = `${SCRATCH_PREFIX}${randomBytes(6).toString('hex')}`;
  let replayed = 0;

  // What an earlier rebuild cut off half-way left behind goes first.
  await dropAbandonedRebuilds(db);
  await sql`create schema ${sql.id(scratch)}`.execute(db);
  await markAlive(db, scratch);
  try {
    for (const table of live) {
      await sql`create table ${sql.id(scratch, table.name)} (like ${sql.id(table.schema, table.name)} including all)`.execute(db);
    }

    let checkpoint: Checkpoint = START;
    for (;;) {
      const applied = await db.transaction().execute(async (trx) => {
        await writeInto(trx, scratch);
        const events = await store.readAll(checkpoint, batchSize, { types: projection.handles, trx });
        if (events.length === 0) return 0;
        await projection.apply(trx, events);
        await markAlive(trx, scratch);
        checkpoint = checkpointOf(events.at(-1)!);
        return events.length;
      });
      replayed += applied;
      if (applied > 0) options.onProgress?.({ projection: projection.name, events: replayed });
      if (applied < batchSize) break;
    }

    if (kind === 'async') await ensureSubscription(db, projection.name);
    const caughtUp = await retryOnDeadlock(() =>
      db.transaction().execute(async (trx) => {
        if (kind === 'async') {
          // Waits for the live runner's batch in flight; its next batch starts from the checkpoint set below.
          await trx.selectFrom('es_subscriptions').select('name').where('name', '=', projection.name).forUpdate().execute();
        }
        const liveNames = live.map((table) => sql.id(table.schema, table.name));
        await sql`lock table ${sql.join(liveNames)} in access exclusive mode`.execute(trx);

        // An inline projection's appends now wait on the lock and will write the swapped-in tables themselves, and
        // those that wrote before it have committed: everything visible belongs in. An async one goes on from
        // its checkpoint, so that must stay commit-safe.
        await writeInto(trx, scratch);
        let swapCheckpoint = checkpoint;
        let extra = 0;
        for (;;) {
          const events = await store.readAll(swapCheckpoint, batchSize, {
            types: projection.handles,
            trx,
            horizon: kind === 'inline' ? 'visible' : 'commit-safe',
          });
          if (events.length === 0) break;
          await projection.apply(trx, events);
          swapCheckpoint = checkpointOf(events.at(-1)!);
          extra += events.length;
        }

        await sql`truncate ${sql.join(liveNames)}`.execute(trx);
        for (const table of live) {
          // In the order listed, so rows that others reference by foreign key go in first.
          const columns = sql.join(table.columns.map((column) => sql.id(column)));
          await sql`insert into ${sql.id(table.schema, table.name)} (${columns}) overriding system value
            select ${columns} from ${sql.id(scratch, table.name)}`.execute(trx);
        }
        if (kind === 'async') {
          await advanceCheckpoint(trx, projection.name, swapCheckpoint);
          await trx
            .updateTable('es_subscriptions')
            .set({ status: 'running', last_error: null, failed_at: null })
            .where('name', '=', projection.name)
            .execute();
        }
        return extra;
      }),
    );
    replayed += caughtUp;
    options.onProgress?.({ projection: projection.name, events: replayed });
    return { events: replayed };
  } finally {
    await sql`drop schema if exists ${sql.id(scratch)} cascade`.execute(db);
  }
}

/** Unqualified table names in this transaction resolve to the scratch copies first. */
async function writeInto(trx: Transaction<Tables>, scratch: string): Promise<void> {
  await sql`select set_config('search_path', ${sql.lit(scratch)} || ',' || current_setting('search_path'), true)`.execute(trx);
}

async function resolveLiveTables(db: Kysely<Tables>, projection: Projection): Promise<LiveTable[]> {
  if (projection.tables.length === 0) throw new Error(`Projection ${projection.name} lists no tables to rebuild`);
  const tables: LiveTable[] = [];
  for (const name of projection.tables) {
    const { rows } = await sql<{ schema: string; name: string; columns: string[] | null }>`
      select n.nspname as schema, c.relname as name,
        (select array_agg(a.attname::text order by a.attnum) from pg_attribute a
          where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = '') as columns
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.oid = to_regclass(${name})`.execute(db);
    const row = rows[0];
    if (!row) throw new Error(`Projection ${projection.name} lists table ${name}, which does not exist`);
    tables.push({ schema: row.schema, name: row.name, columns: row.columns ?? [] });
  }
  return tables;
}

async function retryOnDeadlock<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if ((error as { code?: string }).code !== DEADLOCK || attempt >= 3) throw error;
    }
  }
}
