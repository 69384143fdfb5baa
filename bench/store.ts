// npm run bench:store: the event store's append throughput and rebuild replay speed, on PGlite and PostgreSQL,
// each next to a baseline measured in the same run on the same engine:
//   append: the same rows, one transaction each, INSERTed into a plain copy of es_events (same columns and
//           indexes; no stream lock, version check, trigger, foreign key or notify);
//   rebuild: every projection of src/projections/index.ts rebuilt over a mixed history of BENCH_EVENTS events
//           (bench/store-seed.ts), as `npm run projections -- rebuild` does it now (one read of the log for all of
//           them, rows evolved in memory, new ones written by COPY and changed ones in multi-row upserts), against
//           the replay as it was before (each projection rebuilt on its own read of the log, each event applied on
//           its own, a statement or more per row it touches); the rebuilt rows of both must be equal, table by table.
// Settings: BENCH_EVENTS (events in the history, default 100000), BENCH_PARTS (default append,rebuild),
// BENCH_ENGINES (default pglite,postgres), BENCH_DATABASE_URL (default TEST_DATABASE_URL or the machine's
// postgres://postgres@127.0.0.1:5432/test).
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../src/infra/database/database.ts';
import { migrateToLatest, openPglite, openPostgres } from '../src/infra/database/index.ts';
import { createEventStore, type EventMetadata, type EventStore, type Projection } from '../src/infra/event-store/index.ts';
import { asyncProjections, inlineProjections } from '../src/projections/index.ts';
import { rebuildProjection, rebuildProjections, type RebuildTarget } from '../src/projections/runner/index.ts';
import { seedHistory } from './store-seed.ts';

const REPLAY_EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const PARTS = new Set((process.env.BENCH_PARTS ?? 'append,rebuild').split(',').map((p) => p.trim()));
const ENGINES = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',').map((e) => e.trim()) as ('pglite' | 'postgres')[];
const SINGLE_STREAM_APPENDS = 2_000;
const STREAMS = 100;
const APPENDS_PER_STREAM = 30;
const APPEND_ROUNDS = 3;
/** The rebuild's read batch before (the old default). */
const OLD_REPLAY_BATCH = 1_000;
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const metadata: EventMetadata = { actor: { kind: 'system', id: 'bench' }, commandId: 'bench', timestamp: '2025-01-01T00:00:00.000Z' };

interface Figure {
  engine: string;
  measure: string;
  events: number;
  storeSeconds: number;
  baselineSeconds: number;
}
const figures: Figure[] = [];

async function timed(work: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

/** Runs `count` tasks, at most `concurrency` at a time. */
async function inParallel(concurrency: number, count: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

async function benchAppends(engine: string, database: Database, store: EventStore): Promise<void> {
  const { db } = database;
  await sql`create table bench_plain_events (like es_events including all)`.execute(db);
  const plainInsert = (streamId: string, position: number): Promise<unknown> =>
    db.transaction().execute(async (trx) => {
      await trx
        .insertInto('bench_plain_events' as 'es_events')
        .values({
          stream_id: streamId,
          stream_position: position,
          event_id: randomUUID(),
          event_type: 'Deposited',
          schema_version: 1,
          data: JSON.stringify({ amount: position % 50 }),
          metadata: JSON.stringify(metadata),
          recorded_at: new Date(),
        })
        .execute();
    });
  const append = (streamId: string, position: number): Promise<unknown> =>
    store.append(streamId, 'account', [{ type: 'Deposited', data: { amount: position % 50 }, metadata }], { expected: position - 1 });

  // Warm up both paths first, so neither figure pays for the JIT.
  const warm = `warm-${randomUUID()}`;
  for (let position = 1; position <= 300; position++) await append(warm, position);
  for (let position = 1; position <= 300; position++) await plainInsert(warm, position);

  // One stream: each append waits for the one before, as a command on one aggregate does.
  const oneStream = (write: typeof append) => async () => {
    const stream = `single-${randomUUID()}`;
    for (let position = 1; position <= SINGLE_STREAM_APPENDS; position++) await write(stream, position);
  };
  // 100 streams written at once, each by its own writer.
  const manyStreams = (write: typeof append) => async () => {
    const streams = Array.from({ length: STREAMS }, (_, i) => `many-${i}-${randomUUID()}`);
    await inParallel(STREAMS, STREAMS, async (i) => {
      for (let position = 1; position <= APPENDS_PER_STREAM; position++) await write(streams[i]!, position);
    });
  };
  figures.push({ engine, measure: 'append, 1 stream, 1 event each', events: SINGLE_STREAM_APPENDS, ...(await bestOf(oneStream(append), oneStream(plainInsert))) });
  figures.push({
    engine,
    measure: `append, ${STREAMS} streams at once`,
    events: STREAMS * APPENDS_PER_STREAM,
    ...(await bestOf(manyStreams(append), manyStreams(plainInsert))),
  });
}

/** Store and baseline in turn, APPEND_ROUNDS times; the best time of each, so a burst of load on the machine hurts neither. */
async function bestOf(store: () => Promise<void>, baseline: () => Promise<void>): Promise<{ storeSeconds: number; baselineSeconds: number }> {
  let storeSeconds = Infinity;
  let baselineSeconds = Infinity;
  for (let round = 0; round < APPEND_ROUNDS; round++) {
    storeSeconds = Math.min(storeSeconds, await timed(store));
    baselineSeconds = Math.min(baselineSeconds, await timed(baseline));
  }
  return { storeSeconds, baselineSeconds };
}

const targets: RebuildTarget[] = [
  ...inlineProjections.map((projection) => ({ projection, kind: 'inline' as const })),
  ...asyncProjections.map((projection) => ({ projection, kind: 'async' as const })),
];

/** Every read-model table, each row as JSON, in key order. */
async function readModels(database: Database): Promise<Map<string, string>> {
  const tables = new Map<string, string>();
  for (const { projection } of targets) {
    for (const table of projection.tables) {
      const { rows } = await sql`select * from ${sql.id(table)} order by 1, 2`.execute(database.db);
      tables.set(table, JSON.stringify(rows));
    }
  }
  return tables;
}

/** The projection as the old replay applied it: one event at a time, each with the statements it needs. */
const oneEventAtATime = (projection: Projection): Projection => ({
  ...projection,
  async apply(trx, events) {
    for (const event of events) await projection.apply(trx, [event]);
  },
});

async function benchRebuild(engine: string, database: Database, store: EventStore): Promise<void> {
  const counts = await seedHistory(database, REPLAY_EVENTS);
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  console.log(`${engine}: ${total} events: ${Object.entries(counts).map(([type, n]) => `${type} ${n}`).join(', ')}`);

  let replayed = 0;
  const newSeconds = await timed(async () => {
    replayed = (await rebuildProjections(database, store, targets)).events;
  });
  const afterNew = await readModels(database);

  const oldSeconds = await timed(async () => {
    for (const { projection, kind } of targets) await rebuildProjection(database, store, oneEventAtATime(projection), kind, { batchSize: OLD_REPLAY_BATCH });
  });
  const afterOld = await readModels(database);
  const unequal = [...afterNew.keys()].filter((table) => afterNew.get(table) !== afterOld.get(table));
  if (replayed !== total || unequal.length > 0) {
    throw new Error(`rebuild mismatch: ${total} events, ${replayed} replayed; tables that differ: ${unequal.join(', ') || 'none'}`);
  }
  figures.push({ engine, measure: `rebuild, all projections, ${total} events (new vs old)`, events: total, storeSeconds: newSeconds, baselineSeconds: oldSeconds });
}

async function onEngine(engine: 'pglite' | 'postgres'): Promise<void> {
  let database: Database;
  let cleanup: () => Promise<void>;
  if (engine === 'pglite') {
    // On disk, as the product keeps it (DATA_DIR/pg): in memory, PGlite's files grow by copying themselves.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-store-'));
    database = await openPglite({ dir });
    cleanup = () => rm(dir, { recursive: true, force: true });
  } else {
    const schema = `bench_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    try {
      await admin.connect();
    } catch (error) {
      console.log(`PostgreSQL not reachable at ${POSTGRES_URL} (${(error as Error).message}): its figures are skipped`);
      return;
    }
    await admin.query(`create schema ${schema}`);
    await admin.end();
    database = openPostgres({ url: POSTGRES_URL, schema });
    cleanup = async () => {
      const dropper = new pg.Client({ connectionString: POSTGRES_URL });
      await dropper.connect();
      await dropper.query(`drop schema ${schema} cascade`);
      await dropper.end();
    };
  }
  try {
    await migrateToLatest(database.db);
    const store = createEventStore(database, { inline: [] });
    if (PARTS.has('append')) await benchAppends(engine, database, store);
    if (PARTS.has('rebuild')) await benchRebuild(engine, database, store);
  } finally {
    await database.close();
    await cleanup();
  }
}

function report(): void {
  const rows = figures.map((f) => [
    f.engine,
    f.measure,
    String(Math.round(f.events / f.storeSeconds)),
    String(Math.round(f.events / f.baselineSeconds)),
    (f.baselineSeconds / f.storeSeconds).toFixed(2),
  ]);
  const header = ['engine', 'measure', 'events/s', 'baseline events/s', 'ratio'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i >= 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  console.log(`baselines: append = plain INSERT of the same row into a copy of es_events, one transaction each (best of ${APPEND_ROUNDS} alternating rounds);`);
  console.log('           rebuild = the replay as it was before: each projection on its own read of the log, one event at a time.');
}

for (const engine of ENGINES) await onEngine(engine);
report();
