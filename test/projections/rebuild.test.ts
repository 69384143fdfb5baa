import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createEventStore, START, type EventStore, type Projection, type RecordedEvent } from '../../src/infra/event-store/index.ts';
import { dropAbandonedRebuilds, projectionStatus, rebuildProjection, rebuildProjections, startProjectionRunners } from '../../src/projections/runner/index.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/database.ts';
import { balancesProjection, newEvent, tableRows, totalsProjection } from './fixtures.ts';

describe.each(await databaseKinds())('rebuild on %s', (kind) => {
  let database: TestDatabase;
  let store: EventStore;
  let balances: Projection;
  let totals: Projection;
  let appended = 0;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    balances = await balancesProjection(database.db, 'balances');
    totals = await totalsProjection(database.db, 'totals');
    store = createEventStore(database, { inline: [balances] });
  });
  afterAll(async () => {
    await database?.destroy();
  });

  /** Deterministic traffic over ten accounts, one to three events per append. */
  async function appendMovements(count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const n = appended++;
      const events = Array.from({ length: 1 + (n % 3) }, (_, j) =>
        newEvent((n + j) % 4 === 0 ? 'Withdrawn' : 'Deposited', { amount: ((n * 7 + j * 13) % 50) + 1 }),
      );
      await store.append(`account-${n % 10}`, 'account', events, { expected: 'any' });
    }
  }

  async function caughtUp(): Promise<void> {
    await expect
      .poll(async () => (await projectionStatus(database.db, { inline: [], async: [totals] }))[0]!.lag, { timeout: 10_000 })
      .toBe(0);
  }

  /** What the read models must hold, computed from the log without any projection code. */
  async function expectedFromLog(): Promise<{ balances: unknown[]; totals: unknown[] }> {
    const events: RecordedEvent[] = await store.readAll(START, 1_000_000);
    const accounts = new Map<string, { account_id: string; balance: number; movements: number; last_position: number; overdrawn: boolean }>();
    const types = new Map<string, { event_type: string; count: number; largest: number }>();
    for (const event of events) {
      const amount = (event.data as { amount: number }).amount;
      const account = accounts.get(event.streamId) ?? { account_id: event.streamId, balance: 0, movements: 0, last_position: 0, overdrawn: false };
      account.balance += event.type === 'Withdrawn' ? -amount : amount;
      account.movements++;
      account.last_position = event.streamPosition;
      account.overdrawn = account.balance < 0;
      accounts.set(event.streamId, account);
      const total = types.get(event.type) ?? { event_type: event.type, count: 0, largest: 0 };
      total.count++;
      total.largest = Math.max(total.largest, amount);
      types.set(event.type, total);
    }
    const byKey = <T>(rows: Iterable<T>, key: (row: T) => string) => [...rows].sort((a, b) => key(a).localeCompare(key(b)));
    return {
      balances: byKey(accounts.values(), (a) => a.account_id),
      totals: byKey(types.values(), (t) => t.event_type),
    };
  }

  test('rebuild produces read models equal, row for row, to the live ones', async () => {
    const stop = await startProjectionRunners(database, store, [totals], { pollIntervalMs: 20 });
    try {
      await appendMovements(120);
      await caughtUp();
      const live = { balances: await tableRows(database.db, 'balances'), totals: await tableRows(database.db, 'totals') };
      expect(live).toEqual(await expectedFromLog());

      // Damage both read models: the rebuild must come from the log, not from what is there.
      await sql`update balances set balance = 999 where account_id = 'account-3'`.execute(database.db);
      await sql`delete from totals where event_type = 'Withdrawn'`.execute(database.db);

      // Scratch schemas are database-wide and other test files make their own: only ours must be gone afterwards.
      const scratchSchemas = async () => (await sql<{ nspname: string }>`select nspname from pg_namespace where nspname like 'es_rebuild_%'`.execute(database.db)).rows.map((r) => r.nspname);
      const before = new Set(await scratchSchemas());
      const events = 120 + 120; // every append carries 1 to 3 events: 40 of each size
      expect(await rebuildProjection(database, store, balances, 'inline', { batchSize: 37 })).toEqual({ events });
      expect(await rebuildProjection(database, store, totals, 'async', { batchSize: 37 })).toEqual({ events });
      expect(await tableRows(database.db, 'balances')).toEqual(live.balances);
      expect(await tableRows(database.db, 'totals')).toEqual(live.totals);

      // The live runner goes on from the rebuilt checkpoint: nothing applied twice, nothing missed.
      await appendMovements(6);
      await caughtUp();
      expect({ balances: await tableRows(database.db, 'balances'), totals: await tableRows(database.db, 'totals') }).toEqual(await expectedFromLog());
      // No scratch schema is left behind.
      expect((await scratchSchemas()).filter((name) => !before.has(name))).toEqual([]);
    } finally {
      await stop();
    }
  });

  test('a rebuild while appends and the runner go on still swaps in exactly the log', async () => {
    const stop = await startProjectionRunners(database, store, [totals], { pollIntervalMs: 20 });
    try {
      let appending = true;
      const traffic = (async () => {
        while (appending) await appendMovements(3);
      })();
      const rebuilt = await Promise.all([
        rebuildProjection(database, store, balances, 'inline', { batchSize: 25 }),
        rebuildProjection(database, store, totals, 'async', { batchSize: 25 }),
      ]);
      await appendMovements(3);
      appending = false;
      await traffic;
      await caughtUp();
      expect(rebuilt[0].events).toBeGreaterThan(0);
      expect({ balances: await tableRows(database.db, 'balances'), totals: await tableRows(database.db, 'totals') }).toEqual(await expectedFromLog());
    } finally {
      await stop();
    }
  });

  test('a projection that fails during rebuild leaves the live tables as they were', async () => {
    const before = await tableRows(database.db, 'balances');
    const failing: Projection = {
      ...balances,
      async apply(trx, events) {
        await balances.apply(trx, events);
        if (events.some((e) => e.streamId === 'account-7')) throw new Error('cannot rebuild');
      },
    };
    await expect(rebuildProjection(database, store, failing, 'inline')).rejects.toThrow('cannot rebuild');
    expect(await tableRows(database.db, 'balances')).toEqual(before);
    await expect(rebuildProjection(database, store, { ...balances, tables: ['missing_table'] }, 'inline')).rejects.toThrow(/missing_table/);
  });

  test('the rebuilt tables take the live ones\' place whole: every index under its name, logged, with their checks', async () => {
    const shape = async () =>
      (
        await sql<{ shape: string }>`
          select pg_get_indexdef(x.indexrelid) as shape from pg_index x where x.indrelid = 'balances'::regclass
          union all select 'persistence ' || relpersistence::text from pg_class where oid = 'balances'::regclass
          union all select 'constraint ' || conname || ' ' || pg_get_constraintdef(oid) from pg_constraint where conrelid = 'balances'::regclass
          order by 1`.execute(database.db)
      ).rows.map((row) => row.shape);
    const before = await shape();
    expect(before.some((line) => line.includes('balances_balance'))).toBe(true);
    const rows = await tableRows(database.db, 'balances');
    await rebuildProjection(database, store, balances, 'inline');
    expect(await shape()).toEqual(before);
    expect(await tableRows(database.db, 'balances')).toEqual(rows);
  });

  test('a table a move would not carry whole (a trigger, a foreign key) is refused before anything is replayed', async () => {
    const rows = await tableRows(database.db, 'balances');
    await sql`create function balances_touched() returns trigger language plpgsql as $$ begin return new; end $$`.execute(database.db);
    await sql`create trigger balances_touched before insert on balances for each row execute function balances_touched()`.execute(database.db);
    try {
      await expect(rebuildProjection(database, store, balances, 'inline')).rejects.toThrow(/balances has trigger balances_touched/);
    } finally {
      await sql`drop trigger balances_touched on balances`.execute(database.db);
      await sql`drop function balances_touched()`.execute(database.db);
    }
    await sql`create table balance_notes (account_id text references balances (account_id))`.execute(database.db);
    try {
      await expect(rebuildProjection(database, store, balances, 'inline')).rejects.toThrow(/balance_notes has foreign key/);
    } finally {
      await sql`drop table balance_notes`.execute(database.db);
    }
    expect(await tableRows(database.db, 'balances')).toEqual(rows);
  });

  test('what a rebuild cut off half-way left behind is dropped by the next rebuild, and a rebuild in progress is not', async () => {
    const tag = Math.random().toString(16).slice(2, 10);
    const [dead, unmarked, running] = [`es_rebuild_dead${tag}`, `es_rebuild_unmk${tag}`, `es_rebuild_live${tag}`];
    for (const schema of [dead, unmarked, running]) {
      await sql`create schema ${sql.id(schema)}`.execute(database.db);
      await sql`create table ${sql.id(schema, 'balances')} (like balances including all)`.execute(database.db);
    }
    // A process that died ten minutes into its rebuild; one from before the marks; one marked alive a moment ago.
    await sql`comment on schema ${sql.id(dead)} is ${sql.lit(`rebuild alive at ${Date.now() - 10 * 60_000}`)}`.execute(database.db);
    await sql`comment on schema ${sql.id(running)} is ${sql.lit(`rebuild alive at ${Date.now()}`)}`.execute(database.db);
    const schemas = async () =>
      (await sql<{ name: string }>`select nspname as name from pg_namespace where nspname in (${sql.join([dead, unmarked, running])}) order by 1`.execute(database.db)).rows.map((r) => r.name);

    await rebuildProjection(database, store, balances, 'inline');
    expect(await schemas()).toEqual([unmarked, running].sort());
    // Silent long enough, the one in progress counts as cut off too. (Only our own schemas are aged: the database is
    // shared with other tests, whose rebuilds in progress must not be taken for leftovers.)
    await sql`comment on schema ${sql.id(running)} is ${sql.lit(`rebuild alive at ${Date.now() - 6 * 60_000}`)}`.execute(database.db);
    expect((await dropAbandonedRebuilds(database.db)).filter((name) => name.endsWith(tag))).toEqual([running]);
    await sql`drop schema ${sql.id(unmarked)} cascade`.execute(database.db);
    expect(await schemas()).toEqual([]);
  });

  test('a rebuild reads the log without the payload parts that none of the projections it replays into reads', async () => {
    const seen: Record<string, unknown[]> = { a: [], b: [], c: [] };
    const seeing = async (name: string, unreadParts?: Projection['unreadParts']): Promise<Projection> => {
      await sql`create table ${sql.id(`parts_seen_${name}`)} (id int primary key)`.execute(database.db);
      return {
        name: `parts-${name}`,
        handles: ['Annotated'],
        tables: [`parts_seen_${name}`],
        unreadParts,
        async apply(_trx, events) {
          seen[name]!.push(...events.map((event) => event.data));
        },
      };
    };
    const [a, b, c] = [await seeing('a', { Annotated: ['note', 'tags'] }), await seeing('b', { Annotated: ['note'] }), await seeing('c')];
    const annotated = { amount: 1, note: { text: 'long' }, tags: ['t'] };
    await store.append('annotated-1', 'annotated', [newEvent('Annotated', annotated)], { expected: 'any' });
    // The replay reads commit-safe: wait until the append is there for it (other tests' transactions may hold it back).
    await expect.poll(async () => (await store.readAll(START, 1_000_000, { types: ['Annotated'] })).length, { timeout: 10_000 }).toBe(1);
    const rebuilt = async (...projections: Projection[]) => {
      for (const name of Object.keys(seen)) seen[name] = [];
      await rebuildProjections(database, store, projections.map((projection) => ({ projection, kind: 'inline' as const })));
      return seen;
    };

    expect(await rebuilt(a)).toEqual({ a: [{ amount: 1 }], b: [], c: [] });
    expect(await rebuilt(a, b)).toEqual({ a: [{ amount: 1, tags: ['t'] }], b: [{ amount: 1, tags: ['t'] }], c: [] });
    expect(await rebuilt(a, c)).toEqual({ a: [annotated], b: [], c: [annotated] });
  });
});
