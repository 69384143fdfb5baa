import { randomBytes } from 'node:crypto';
import { sql, type CompiledQuery, type Kysely, type Transaction } from 'kysely';
import { CopyRows } from '../../infra/database/copy-rows.ts';
import type { Database } from '../../infra/database/database.ts';
import type { Tables } from '../../infra/database/schema.ts';
import { checkpointOf, START, type Checkpoint, type EventStore, type Projection, type RecordedEvent } from '../../infra/event-store/types.ts';
import { isRowProjection } from './row-projection.ts';
import { RowStore, type ColumnTypes, type RowExecutor } from './row-store.ts';
import { assertMovable, createScratchTable, indexScratchTable, moveIntoPlace, resolveLiveTable, scratchColumnTypes, type LiveTable } from './scratch-tables.ts';
import { advanceCheckpoint, ensureSubscription } from './subscriptions.ts';

export interface RebuildOptions {
  /** Events read and applied per transaction while replaying. */
  batchSize?: number;
  onProgress?: (progress: { projection: string; events: number }) => void;
}

const DEADLOCK = '40P01';
/** A row changed goes out once this many pages have left it alone (RowStore.takeWrites), or at the end. */
const QUIET_PAGES = 1;
const SCRATCH_PREFIX = 'es_rebuild_';
/**
 * Events a projection handles between turns of the event loop. Its handlers rarely wait for anything, so a page
 * would run as one chain of microtasks, and meanwhile the writes of the page before and the read of the next one
 * would each stall at their next message: the database's answer waits to be taken, the next statement to be sent.
 */
const EVENTS_BETWEEN_TURNS = 100;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
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

export interface RebuildTarget {
  projection: Projection;
  kind: 'inline' | 'async';
}

/** Replays the whole log through one projection into fresh tables, then swaps them in: see `rebuildProjections`. */
export async function rebuildProjection(
  database: Database,
  store: EventStore,
  projection: Projection,
  kind: 'inline' | 'async',
  options: RebuildOptions = {},
): Promise<{ events: number }> {
  return rebuildProjections(database, store, [{ projection, kind }], options);
}

/**
 * Replays the whole log through the projections into fresh tables, in batches, then swaps them in.
 *
 * The log is read once, in one stream of pages (the next page read while the last is applied), each page handed to
 * every projection that handles its events, in one transaction per page. A row projection (row-projection.ts) keeps
 * one RowStore for the whole replay: its rows are evolved in memory and written, each once it has been left alone for
 * a page (QUIET_PAGES), the rest at the end: a row new to its table by COPY, one written before in a multi-row
 * upsert. Any other projection gets each page through its `apply`. The log is read without the payload parts none
 * of them reads (Projection.unreadParts: a CardGraded's evidence, more than half its bytes). A log never analyzed is
 * analyzed first (analyzeUnanalyzedLog).
 *
 * The fresh tables are copies of the live ones in a scratch schema put first on the search_path
 * (scratch-tables.ts), so the projections write them under their usual names while the live tables keep serving
 * reads. Once filled they get the live tables' other indexes. The swap is one short transaction: it locks
 * the live tables (waiting out appends and batches that write them), replays what came in meanwhile, then drops the
 * live tables and moves the fresh ones into their place: however many rows, no copy.
 *
 * Returns how many events were replayed (each once, however many projections it went to).
 */
export async function rebuildProjections(
  database: Database,
  store: EventStore,
  targets: readonly RebuildTarget[],
  options: RebuildOptions = {},
): Promise<{ events: number }> {
  const { db } = database;
  const batchSize = options.batchSize ?? 10_000;
  const names = targets.map(({ projection }) => projection.name).join(', ');
  const live = new Map<RebuildTarget, LiveTable[]>();
  for (const target of targets) live.set(target, await resolveLiveTables(db, target.projection));
  const liveTables = [...live.values()].flat();
  const shared = liveTables.find((table, i) => liveTables.findIndex((t) => t.oid === table.oid) !== i);
  if (shared) throw new Error(`Table ${shared.name} is listed by two of the projections rebuilt`);
  await assertMovable(db, liveTables);
  const types = [...new Set(targets.flatMap(({ projection }) => projection.handles))];
  const leaveOut = partsNoneRead(targets.map(({ projection }) => projection), types);
  const scratch = `${SCRATCH_PREFIX}${randomBytes(6).toString('hex')}`;
  let replayed = 0;

  // What an earlier rebuild cut off half-way left behind goes first.
  await dropAbandonedRebuilds(db);
  await analyzeUnanalyzedLog(db);
  const compression = await fastCompression(db);
  await sql`create schema ${sql.id(scratch)}`.execute(db);
  await markAlive(db, scratch);
  try {
    // A row projection finds rows by key alone (its store answers lookups from memory), so its tables get their
    // primary key and no other index until the replay is done: less to write per row, and no unique index for one
    // of a batch's many rows to trip on before another has given its value up.
    for (const target of targets) {
      for (const table of live.get(target)!) await createScratchTable(db, table, scratch, isRowProjection(target.projection) ? 'key' : 'all');
    }

    // A page's writes go out while the handlers work through the next page: the database and this process work
    // side by side. What the handlers read from the tables (rarely: rows their stores no longer hold) waits for the
    // writes before it.
    let writing: Promise<void> = Promise.resolve();
    const reader: RowExecutor = {
      async executeQuery(query) {
        await writing;
        return db.transaction().execute(async (trx) => {
          await writeInto(trx, scratch, compression);
          return trx.executeQuery(query);
        });
      },
    };
    // Knowing the column types, the stores write a column at a time (row-store.ts rowWrites).
    const columnTypes = await scratchColumnTypes(db, liveTables, scratch);
    const replayers = targets.map(({ projection }) => replayerOf(projection, reader, columnTypes));
    const read = (after: Checkpoint) => {
      const page = store.readAll(after, batchSize, { types, leaveOut });
      page.catch(() => {}); // awaited below; until then a failure must not count as unhandled
      return page;
    };
    // A page's statements each write rows of keys no other of them touches (the stores keep one change per key,
    // and scratch tables have no unique index but the key), so they go out in two transactions side by side:
    // PostgreSQL writes on two cores. Projections without a store apply the page in the first.
    const write = (events: readonly RecordedEvent[], statements: readonly CompiledQuery[]) => {
      const [first, second] = inTwo(statements);
      writing = Promise.all([
        db.transaction().execute(async (trx) => {
          await writeInto(trx, scratch, compression);
          for (const replayer of replayers) await replayer.apply?.(trx, events);
          for (const statement of first) await trx.executeQuery(statement);
          await markAlive(trx, scratch);
        }),
        second.length > 0 &&
          db.transaction().execute(async (trx) => {
            await writeInto(trx, scratch, compression);
            for (const statement of second) await trx.executeQuery(statement);
          }),
      ]).then(() => {});
      writing.catch(() => {}); // awaited before the next page's writes, and after the last
    };
    let checkpoint: Checkpoint = START;
    let next = read(checkpoint);
    for (;;) {
      const events = await next;
      if (events.length === 0) break;
      checkpoint = checkpointOf(events.at(-1)!);
      // PostgreSQL reads the next page on another connection while this one is applied.
      next = events.length < batchSize ? Promise.resolve([]) : read(checkpoint);
      for (const replayer of replayers) await replayer.handle(events);
      const statements = replayers.flatMap((replayer) => replayer.takeWrites({ quietRounds: QUIET_PAGES }));
      await writing;
      write(events, statements);
      replayed += events.length;
      options.onProgress?.({ projection: names, events: replayed });
    }
    // What the stores still hold back.
    await writing;
    write([], replayers.flatMap((replayer) => replayer.takeWrites()));
    await writing;
    // Two tables indexed at a time: PostgreSQL builds each on a core of its own.
    const unindexed = [...liveTables];
    const indexNext = async (): Promise<void> => {
      for (let table = unindexed.shift(); table; table = unindexed.shift()) await indexScratchTable(db, table, scratch);
    };
    await Promise.all([indexNext(), indexNext()]);

    const asyncNames = targets.filter(({ kind }) => kind === 'async').map(({ projection }) => projection.name).sort();
    const inline = targets.filter(({ kind }) => kind === 'inline').map(({ projection }) => projection);
    for (const name of asyncNames) await ensureSubscription(db, name);
    const caughtUp = await retryOnDeadlock(() =>
      db.transaction().execute(async (trx) => {
        if (asyncNames.length > 0) {
          // Waits for the live runners' batches in flight; their next batches start from the checkpoints set below.
          await trx.selectFrom('es_subscriptions').select('name').where('name', 'in', asyncNames).orderBy('name').forUpdate().execute();
        }
        const liveNames = liveTables.map((table) => sql.id(table.schema, table.name));
        await sql`lock table ${sql.join(liveNames)} in access exclusive mode`.execute(trx);

        // What came in during the replay, applied as appends apply it (a retry after a deadlock starts over from
        // the tables as the replay left them). An async projection goes on from its checkpoint, so that must stay
        // commit-safe; an inline projection's appends now wait on the lock and will write the swapped-in tables
        // themselves, and those that wrote before it have committed: everything visible belongs in.
        await writeInto(trx, scratch, compression);
        let extra = 0;
        const catchUp = async (projections: readonly Projection[], from: Checkpoint, horizon: 'commit-safe' | 'visible') => {
          const handled = [...new Set(projections.flatMap((projection) => projection.handles))];
          let at = from;
          for (;;) {
            const events = await store.readAll(at, batchSize, { types: handled, trx, horizon });
            if (events.length === 0) return at;
            for (const projection of projections) {
              const mine = events.filter((event) => projection.handles.includes(event.type));
              if (mine.length > 0) await projection.apply(trx, mine);
            }
            at = checkpointOf(events.at(-1)!);
            extra += events.length;
          }
        };
        const commitSafe = await catchUp(
          targets.map(({ projection }) => projection),
          checkpoint,
          'commit-safe',
        );
        if (inline.length > 0) await catchUp(inline, commitSafe, 'visible');

        await moveIntoPlace(trx, liveTables, scratch);
        if (asyncNames.length > 0) {
          for (const name of asyncNames) await advanceCheckpoint(trx, name, commitSafe);
          await trx
            .updateTable('es_subscriptions')
            .set({ status: 'running', last_error: null, failed_at: null })
            .where('name', 'in', asyncNames)
            .execute();
        }
        return extra;
      }),
    );
    replayed += caughtUp;
    options.onProgress?.({ projection: names, events: replayed });
    return { events: replayed };
  } finally {
    await sql`drop schema if exists ${sql.id(scratch)} cascade`.execute(db);
  }
}

interface Replayer {
  /** Applies the page to the rows in memory (a row projection; nothing for another). */
  handle(events: readonly RecordedEvent[]): Promise<void>;
  /** The statements that write what `handle` changed. */
  takeWrites(options?: { quietRounds?: number }): CompiledQuery[];
  /** A projection without a store: applies the page in the page's transaction, through its `apply`. */
  apply?(trx: Transaction<Tables>, events: readonly RecordedEvent[]): Promise<void>;
}

/**
 * How a projection takes the replay's pages: a row projection through one RowStore kept for the whole replay, which
 * knows every row of the fresh tables; any other through its `apply`.
 */
function replayerOf(projection: Projection, reader: RowExecutor, columnTypes: ColumnTypes): Replayer {
  const handles = new Set(projection.handles);
  if (!isRowProjection(projection)) {
    return {
      async handle() {},
      takeWrites: () => [],
      async apply(trx, events) {
        const handled = events.filter((event) => handles.has(event.type));
        if (handled.length > 0) await projection.apply(trx, handled);
      },
    };
  }
  const rows = new RowStore(projection.rowTables, { complete: true, executor: reader, columnTypes });
  return {
    async handle(events) {
      let handled = 0;
      for (const event of events) {
        if (!handles.has(event.type)) continue;
        await projection.handle(rows, event);
        if (++handled % EVENTS_BETWEEN_TURNS === 0) await nextTurn();
      }
      await rows.settle();
    },
    takeWrites: (options) => rows.takeWrites(options),
  };
}

/**
 * By event type, the payload parts (Projection.unreadParts) that none of the projections handling it reads: what the
 * replay's read of the log leaves out.
 */
function partsNoneRead(projections: readonly Projection[], types: readonly string[]): Record<string, string[]> {
  const leaveOut: Record<string, string[]> = {};
  for (const type of types) {
    const [first = [], ...others] = projections.filter((projection) => projection.handles.includes(type)).map((projection) => projection.unreadParts?.[type] ?? []);
    const unread = first.filter((path) => others.every((paths) => paths.includes(path)));
    if (unread.length > 0) leaveOut[type] = unread;
  }
  return leaveOut;
}

/** Statements in two shares of about as many values each, the largest placed first. */
function inTwo(statements: readonly CompiledQuery[]): [CompiledQuery[], CompiledQuery[]] {
  const shares: [CompiledQuery[], CompiledQuery[]] = [[], []];
  const sizes = [0, 0];
  const weighed = statements.map((statement) => ({ statement, values: valuesOf(statement) })).sort((a, b) => b.values - a.values);
  for (const { statement, values } of weighed) {
    const i = sizes[0]! <= sizes[1]! ? 0 : 1;
    shares[i]!.push(statement);
    sizes[i]! += values;
  }
  return shares;
}

/** How many values a statement writes: a COPY's, an array's each, any other parameter one. */
function valuesOf(statement: CompiledQuery): number {
  let values = 1;
  for (const parameter of statement.parameters) {
    if (parameter instanceof CopyRows) values += parameter.values;
    else values += Array.isArray(parameter) ? parameter.length : 1;
  }
  return values;
}

/**
 * Unqualified table names in this transaction resolve to the scratch copies first; large values it writes are
 * compressed with `compression` (see `fastCompression`) when there is one.
 */
async function writeInto(trx: Transaction<Tables>, scratch: string, compression: string | undefined): Promise<void> {
  const path = sql`set_config('search_path', ${sql.lit(scratch)} || ',' || current_setting('search_path'), true)`;
  if (compression) await sql`select ${path}, set_config('default_toast_compression', ${compression}, true)`.execute(trx);
  else await sql`select ${path}`.execute(trx);
}

/**
 * lz4 where the server has it (PostgreSQL built with it; not PGlite). A graded card's row holds the engine's whole
 * result, about 3 KB, which PostgreSQL compresses on the way in: pglz, the default, took about as long as parsing
 * it as jsonb, lz4 a sixth of that. The values stay so compressed in the tables swapped in; reads decompress either
 * kind.
 */
async function fastCompression(db: Kysely<Tables>): Promise<string | undefined> {
  const { rows } = await sql<{ lz4: boolean }>`
    select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`.execute(db);
  return rows[0]?.lz4 ? 'lz4' : undefined;
}

async function resolveLiveTables(db: Kysely<Tables>, projection: Projection): Promise<LiveTable[]> {
  if (projection.tables.length === 0) throw new Error(`Projection ${projection.name} lists no tables to rebuild`);
  const tables: LiveTable[] = [];
  for (const name of projection.tables) {
    const table = await resolveLiveTable(db, name);
    if (!table) throw new Error(`Projection ${projection.name} lists table ${name}, which does not exist`);
    tables.push(table);
  }
  return tables;
}

/**
 * A log the planner has no statistics for (PGlite never runs autovacuum; PostgreSQL not yet after a bulk load) is
 * taken for a small one: each page is then read by sorting the whole rest of the log, and the replay grows with the
 * square of its length (a 100,000-event replay spent 3.7 s of its 14 waiting for pages). Analyzed, each page walks
 * the log's commit-order index from the checkpoint on.
 */
async function analyzeUnanalyzedLog(db: Kysely<Tables>): Promise<void> {
  const { rows } = await sql<{ analyzed: boolean }>`
    select coalesce(bool_and(reltuples >= 0), false) as analyzed from pg_class where oid in ('es_events'::regclass, 'es_streams'::regclass)`.execute(db);
  if (!rows[0]?.analyzed) await sql`analyze es_events, es_streams`.execute(db);
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
