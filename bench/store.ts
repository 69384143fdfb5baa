// npm run bench:store: the event store's append throughput and rebuild replay speed, on PGlite and PostgreSQL,
// each next to a baseline measured in the same run on the same engine:
//   append: the same rows, one transaction each, INSERTed into a plain copy of es_events (same columns and
//           indexes; no stream lock, version check, trigger, foreign key or notify);
//   replay: the same projection fed the same events in the same batches straight into its live table
//           (no scratch tables, no swap);
//   cards rebuild: the real cards projection (card_grades, price_history, card_collections) over BENCH_EVENTS
//           CardGraded and CardPriceRecorded events, batched (multi-row upserts, as it runs now) against the same
//           projection one event at a time (as it ran before), both through the real rebuild; the rows must be equal.
// Settings: BENCH_EVENTS (replayed events, default 100000), BENCH_PARTS (default append,replay,cards), BENCH_DATABASE_URL (default TEST_DATABASE_URL or the
// machine's postgres://postgres@127.0.0.1:5432/test).
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../src/infra/database/database.ts';
import { migrateToLatest, openPglite, openPostgres } from '../src/infra/database/index.ts';
import { createEventStore, START, checkpointOf, type EventMetadata, type EventStore, type Projection } from '../src/infra/event-store/index.ts';
import { applyCardEventsOneByOne, cardsProjection } from '../src/projections/cards/cards-projection.ts';
import { rebuildProjection } from '../src/projections/runner/index.ts';
import { seedCards } from './store-seed.ts';

const REPLAY_EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const PARTS = new Set((process.env.BENCH_PARTS ?? 'append,replay,cards').split(',').map((p) => p.trim()));
const SINGLE_STREAM_APPENDS = 2_000;
const STREAMS = 100;
const APPENDS_PER_STREAM = 30;
const APPEND_ROUNDS = 3;
const REPLAY_BATCH = 1_000;
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

/** One upsert per event, as the features' projections do. */
async function balancesProjection(database: Database): Promise<Projection> {
  await sql`create table bench_balances (account_id text primary key, balance integer not null, movements integer not null)`.execute(database.db);
  return {
    name: 'bench_balances',
    handles: ['Deposited'],
    tables: ['bench_balances'],
    async apply(trx, events) {
      for (const event of events) {
        await sql`insert into bench_balances values (${event.streamId}, ${(event.data as { amount: number }).amount}, 1)
          on conflict (account_id) do update set balance = bench_balances.balance + excluded.balance,
            movements = bench_balances.movements + 1`.execute(trx);
      }
    },
  };
}

/** Fills the log directly (1,000 streams, 1,000 events per transaction): replay speed is what is measured. */
async function seedLog(database: Database, events: number): Promise<void> {
  const streams = 1_000;
  const perStream = Math.ceil(events / streams);
  await sql`insert into es_streams (stream_id, stream_type, version)
    select 'seed-' || s, 'account', ${perStream} from generate_series(0, ${streams - 1}) s`.execute(database.db);
  for (let from = 0; from < events; from += 1_000) {
    const to = Math.min(events, from + 1_000) - 1;
    await sql`insert into es_events (stream_id, stream_position, event_id, event_type, schema_version, data, metadata, recorded_at)
      select 'seed-' || (g % ${streams}), g / ${streams} + 1, gen_random_uuid(), 'Deposited', 1,
        jsonb_build_object('amount', g % 50 + 1), ${JSON.stringify(metadata)}::jsonb, now()
      from generate_series(${from}::int, ${to}::int) g`.execute(database.db);
  }
}

async function benchReplay(engine: string, database: Database, store: EventStore): Promise<void> {
  const projection = await balancesProjection(database);
  await seedLog(database, REPLAY_EVENTS);
  const total = Number((await sql<{ n: number }>`select count(*)::int as n from es_events where event_type = 'Deposited'`.execute(database.db)).rows[0]!.n);

  let rebuilt = 0;
  const rebuildSeconds = await timed(async () => {
    rebuilt = (await rebuildProjection(database, store, projection, 'inline', { batchSize: REPLAY_BATCH })).events;
  });
  const afterRebuild = await sql`select * from bench_balances order by account_id`.execute(database.db);

  await sql`truncate bench_balances`.execute(database.db);
  let replayed = 0;
  const plainSeconds = await timed(async () => {
    for (let checkpoint = START; ; ) {
      const applied = await database.db.transaction().execute(async (trx) => {
        const events = await store.readAll(checkpoint, REPLAY_BATCH, { types: projection.handles, trx });
        if (events.length > 0) {
          await projection.apply(trx, events);
          checkpoint = checkpointOf(events.at(-1)!);
        }
        return events.length;
      });
      replayed += applied;
      if (applied < REPLAY_BATCH) break;
    }
  });
  const afterPlain = await sql`select * from bench_balances order by account_id`.execute(database.db);
  if (rebuilt !== total || replayed !== total || JSON.stringify(afterRebuild.rows) !== JSON.stringify(afterPlain.rows)) {
    throw new Error(`replay mismatch: ${total} events, rebuild ${rebuilt}, plain ${replayed}`);
  }
  figures.push({ engine, measure: `rebuild replay, ${total} events`, events: total, storeSeconds: rebuildSeconds, baselineSeconds: plainSeconds });
}

async function benchCardsRebuild(engine: string, database: Database, store: EventStore): Promise<void> {
  await seedCards(database, REPLAY_EVENTS);
  const total = Number((await sql<{ n: number }>`select count(*)::int as n from es_events where event_type in ('CardGraded', 'CardPriceRecorded')`.execute(database.db)).rows[0]!.n);
  const snapshot = async () =>
    JSON.stringify([
      (await sql`select * from card_grades order by id`.execute(database.db)).rows,
      (await sql`select * from price_history order by id`.execute(database.db)).rows,
      (await sql`select * from card_collections order by owner`.execute(database.db)).rows,
    ]);
  let batched = 0;
  const batchedSeconds = await timed(async () => {
    batched = (await rebuildProjection(database, store, cardsProjection, 'inline', { batchSize: REPLAY_BATCH })).events;
  });
  const afterBatched = await snapshot();
  let oneByOne = 0;
  const oneByOneSeconds = await timed(async () => {
    oneByOne = (await rebuildProjection(database, store, { ...cardsProjection, apply: applyCardEventsOneByOne }, 'inline', { batchSize: REPLAY_BATCH })).events;
  });
  if (batched !== total || oneByOne !== total || afterBatched !== (await snapshot())) {
    throw new Error(`cards rebuild mismatch: ${total} events, batched ${batched}, one by one ${oneByOne}, rows equal: ${afterBatched === (await snapshot())}`);
  }
  figures.push({ engine, measure: `cards rebuild, ${total} events (batched vs one by one)`, events: total, storeSeconds: batchedSeconds, baselineSeconds: oneByOneSeconds });
}

async function onEngine(engine: 'pglite' | 'postgres'): Promise<void> {
  let database: Database;
  let cleanup = async () => {};
  if (engine === 'pglite') {
    database = await openPglite();
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
    if (PARTS.has('replay')) await benchReplay(engine, database, store);
    if (PARTS.has('cards')) await benchCardsRebuild(engine, database, store);
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
  const header = ['engine', 'measure', 'store events/s', 'baseline events/s', 'store/baseline'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i >= 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  console.log(`baselines: append = plain INSERT of the same row into a copy of es_events, one transaction each (best of ${APPEND_ROUNDS} alternating rounds);`);
  console.log('           rebuild = the same projection and batches replayed straight into the live table;');
  console.log('           cards rebuild = the same rebuild with the cards projection applying one event at a time (as before).');
}

for (const engine of ['pglite', 'postgres'] as const) await onEngine(engine);
report();
