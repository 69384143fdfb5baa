import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runProjectionsCommand, type ProjectionsContext } from '../../scripts/projections.ts';
import { runReplayCommand } from '../../scripts/replay.ts';
import { createEventStore, START, type EventStore } from '../../src/infra/event-store/index.ts';
import { projectionStatus, resetFailed, startProjectionRunners } from '../../src/projections/runner/index.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/database.ts';
import { balancesProjection, deliveryLog, metadata, newEvent, tableRows, totalsProjection, uniqueName } from './fixtures.ts';

const fast = { pollIntervalMs: 20 };

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe.each(await databaseKinds())('async projection runners and operator commands on %s', (kind) => {
  let database: TestDatabase;
  let store: EventStore;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    store = createEventStore(database);
  });
  afterAll(async () => {
    await database?.destroy();
  });

  const subscription = async (name: string) =>
    database.db
      .selectFrom('es_subscriptions')
      .select(['status', 'last_error', 'owner', 'checkpoint_global_position'])
      .where('name', '=', name)
      .executeTakeFirstOrThrow();

  test('a transaction that commits late is still delivered after the checkpoint has passed later positions', async () => {
    const type = uniqueName('Ticked');
    const log = await deliveryLog(database.db, { handles: [type] });
    const gate = deferred();
    const entered = deferred();
    // Holds its append open after the insert, as a slow transaction would.
    const slowStore = createEventStore(database, {
      inline: [
        {
          name: 'hold',
          handles: [type],
          tables: [],
          async apply(_trx, events) {
            if (events.some((e) => (e.data as { late?: boolean }).late)) {
              entered.resolve();
              await gate.promise;
            }
          },
        },
      ],
    });
    const stop = await startProjectionRunners(database, store, [log], fast);
    try {
      if (kind === 'postgres') {
        // Transaction A takes its id first; B inserts at a lower global position and stays open;
        // A inserts at a higher position and commits. A commit-safe reader delivers A while B is open,
        // its checkpoint's position passes B's, and B must still arrive when it commits.
        const aHasId = deferred();
        const bInserted = deferred();
        const early = database.db.connection().execute(async (conn) => {
          await sql`begin`.execute(conn);
          await sql`select pg_current_xact_id()`.execute(conn);
          aHasId.resolve();
          await bInserted.promise;
          const streamId = `early-${randomUUID()}`;
          await sql`insert into es_streams (stream_id, stream_type, version) values (${streamId}, 'test', 1)`.execute(conn);
          const { rows } = await sql<{ global_position: number }>`
            insert into es_events (stream_id, stream_position, event_id, event_type, schema_version, data, metadata, recorded_at)
            values (${streamId}, 1, ${randomUUID()}, ${type}, 1, '{}', ${JSON.stringify(metadata)}, now())
            returning global_position`.execute(conn);
          await sql`commit`.execute(conn);
          return rows[0]!.global_position;
        });
        await aHasId.promise;
        const late = slowStore.append(`late-${randomUUID()}`, 'test', [newEvent(type, { late: true })], { expected: 'no_stream' });
        await entered.promise;
        bInserted.resolve();
        const earlyPosition = await early;

        await expect.poll(async () => (await log.deliveries()).map((d) => d.global_position), { timeout: 5000 }).toEqual([earlyPosition]);
        await sleep(100); // several polls while B is still open
        const checkpoint = (await subscription(log.name)).checkpoint_global_position;
        expect(checkpoint).toBe(earlyPosition);

        gate.resolve();
        const latePosition = (await late).events[0]!.globalPosition;
        expect(latePosition).toBeLessThan(checkpoint);
        await expect.poll(async () => (await log.deliveries()).length, { timeout: 5000 }).toBe(2);
        expect((await log.deliveries()).map((d) => d.global_position).sort()).toEqual([latePosition, earlyPosition].sort());
      } else {
        // PGlite runs one transaction at a time, so nothing can commit out of order; the same traffic
        // (a slow append with others queued behind it and the runner polling) is delivered exactly once.
        const late = slowStore.append(`late-${randomUUID()}`, 'test', [newEvent(type, { late: true })], { expected: 'no_stream' });
        await entered.promise;
        const others = Array.from({ length: 10 }, () => store.append(`other-${randomUUID()}`, 'test', [newEvent(type)], { expected: 'no_stream' }));
        await sleep(100);
        gate.resolve();
        await late;
        await Promise.all(others);
        await expect.poll(async () => (await log.deliveries()).length, { timeout: 5000 }).toBe(11);
      }
      await sleep(100);
      const deliveries = await log.deliveries();
      expect(new Set(deliveries.map((d) => d.event_id)).size).toBe(deliveries.length);
    } finally {
      gate.resolve();
      await stop();
    }
  });

  test('a projection that throws after writing rolls its batch back, stops, and after reset-failed ends up applied once', async () => {
    const type = uniqueName('Ticked');
    let poisoned = true;
    const log = await deliveryLog(database.db, { handles: [type, 'Poisoned'], failWhen: (types) => poisoned && types.includes('Poisoned') });
    const id = `fragile-${randomUUID()}`;
    const kinds = [type, type, type, 'Poisoned', type, type];
    for (const eventType of kinds) await store.append(id, 'test', [newEvent(eventType)], { expected: 'any' });
    // The runner reads only below the oldest transaction open anywhere on the server (another test file's too): the
    // batches described below are the ones it makes once all six are there to read (CI once saw the third alone).
    await expect
      .poll(async () => (await store.readAll(START, 1_000, { types: [type, 'Poisoned'] })).filter((event) => event.streamId === id).length, { timeout: 10_000 })
      .toBe(kinds.length);

    const stop = await startProjectionRunners(database, store, [log], { ...fast, batchSize: 2 });
    try {
      await expect.poll(async () => (await subscription(log.name)).status, { timeout: 5000 }).toBe('failed');
      const failed = await subscription(log.name);
      expect(failed.last_error).toContain('boom');
      // The first batch of two committed; the batch holding the poison wrote rows, then rolled back whole.
      const { events } = await store.readStream(id);
      expect((await log.deliveries()).map((d) => d.event_id)).toEqual(events.slice(0, 2).map((e) => e.eventId));
      expect(failed.checkpoint_global_position).toBe(events[1]!.globalPosition);
      await sleep(100);
      expect(await log.deliveries()).toHaveLength(2);
      const status = (await projectionStatus(database.db, { inline: [], async: [log] }))[0]!;
      expect(status).toMatchObject({ status: 'failed', lag: 4 });
      expect(status.lastError).toContain('boom');

      poisoned = false; // the bug is fixed
      expect(await resetFailed(database.db)).toContain(log.name);
      await expect.poll(async () => (await log.deliveries()).length, { timeout: 5000 }).toBe(6);
      await sleep(100);
      expect((await log.deliveries()).map((d) => d.event_id)).toEqual(events.map((e) => e.eventId));
      expect(await subscription(log.name)).toMatchObject({ status: 'running', last_error: null, checkpoint_global_position: events[5]!.globalPosition });
    } finally {
      await stop();
    }
  });

  test('two runners on one subscription: only one makes progress, the other takes over when it stops', async () => {
    const type = uniqueName('Ticked');
    const name = uniqueName('shared');
    const table = uniqueName('deliveries');
    const byA = await deliveryLog(database.db, { name, table, handles: [type], appliedBy: 'a' });
    const byB = await deliveryLog(database.db, { name, table, handles: [type], appliedBy: 'b' });
    const stops = {
      a: await startProjectionRunners(database, store, [byA], { ...fast, owner: 'a', batchSize: 3 }),
      b: await startProjectionRunners(database, store, [byB], { ...fast, owner: 'b', batchSize: 3 }),
    };
    try {
      for (let i = 0; i < 10; i++) {
        await store.append(`shared-${randomUUID()}`, 'test', [newEvent(type), newEvent(type)], { expected: 'no_stream' });
        await sleep(5);
      }
      await expect.poll(async () => (await byA.deliveries()).length, { timeout: 5000 }).toBe(20);
      const first = await byA.deliveries();
      const owners = new Set(first.map((d) => d.applied_by));
      expect(owners.size).toBe(1);
      const winner = [...owners][0] as 'a' | 'b';
      expect((await subscription(name)).owner).toBe(winner);

      await stops[winner]();
      for (let i = 0; i < 3; i++) await store.append(`shared-${randomUUID()}`, 'test', [newEvent(type)], { expected: 'no_stream' });
      await expect.poll(async () => (await byA.deliveries()).length, { timeout: 5000 }).toBe(23);
      const all = await byA.deliveries();
      const other = winner === 'a' ? 'b' : 'a';
      expect(all.slice(20).map((d) => d.applied_by)).toEqual([other, other, other]);
      expect(new Set(all.map((d) => d.event_id)).size).toBe(23);
    } finally {
      await stops.a();
      await stops.b();
    }
  });

  test('operator commands: status, reset-failed and rebuild', async () => {
    // Event types of their own, so the other tests' events in this database are not theirs.
    const balances = { ...(await balancesProjection(database.db)), handles: ['CliDeposited'] };
    const totals = { ...(await totalsProjection(database.db)), handles: ['CliDeposited'] };
    let poisoned = true;
    const fragile = await deliveryLog(database.db, { handles: ['CliDeposited'], failWhen: () => poisoned });
    const context: ProjectionsContext = {
      database,
      store: createEventStore(database, { inline: [balances] }),
      inline: [balances],
      async: [totals, fragile],
      out: (line) => lines.push(line),
    };
    let lines: string[] = [];
    const run = async (...args: string[]) => {
      lines = [];
      const code = await runProjectionsCommand(args, context);
      return { code, output: lines.join('\n') };
    };
    for (let i = 0; i < 5; i++) {
      await context.store.append(`cli-account-${i % 2}`, 'account', [newEvent('CliDeposited', { amount: i + 1 })], { expected: 'any' });
    }

    const before = await run('status');
    expect(before.code).toBe(0);
    expect(before.output).toMatch(new RegExp(`^${balances.name}\\s+inline\\s+inline\\s+0`, 'm'));
    expect(before.output).toMatch(new RegExp(`^${totals.name}\\s+async\\s+not started\\s+5`, 'm'));

    const stop = await startProjectionRunners(database, context.store, context.async, { ...fast, owner: 'cli-test' });
    try {
      await expect.poll(async () => (await run('status')).code, { timeout: 5000 }).toBe(2);
      const failed = await run('status');
      expect(failed.output).toMatch(new RegExp(`^${totals.name}\\s+async\\s+running\\s+0\\s+\\d+/\\d+\\s+cli-test until `, 'm'));
      expect(failed.output).toMatch(new RegExp(`^${fragile.name}\\s+async\\s+failed\\s+5`, 'm'));
      expect(failed.output).toMatch(new RegExp(`^${fragile.name} failed at .*boom`, 'm'));

      poisoned = false;
      expect(await run('reset-failed')).toEqual({ code: 0, output: `started again: ${fragile.name}` });
      await expect.poll(async () => (await run('status')).output, { timeout: 5000 }).toMatch(new RegExp(`^${fragile.name}\\s+async\\s+running\\s+0`, 'm'));
      expect(await run('reset-failed')).toEqual({ code: 0, output: 'no failed subscriptions' });
    } finally {
      await stop();
    }

    const live = await tableRows(database.db, balances.name);
    const rebuilt = await run('rebuild', balances.name);
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.output).toMatch(new RegExp(`^rebuilt ${balances.name} \\(inline\\): 5 events in `));
    expect(await tableRows(database.db, balances.name)).toEqual(live);

    // All of them in one read of the log.
    const all = await run('rebuild');
    expect(all.output.split(':')[0]).toBe(`rebuilt ${balances.name} (inline), ${totals.name} (async), ${fragile.name} (async)`);
    expect(await run('rebuild', 'nope')).toEqual({ code: 1, output: `no projection named nope; known: ${balances.name}, ${totals.name}, ${fragile.name}` });
    expect((await run('help')).code).toBe(1);

    const out: string[] = [];
    expect(await runReplayCommand(['stream', 'cli-account-0'], context.store, (line) => out.push(line))).toBe(0);
    const events = out.map((line) => JSON.parse(line) as { streamId: string; streamPosition: number; type: string; data: unknown });
    expect(events.map((e) => [e.streamId, e.streamPosition, e.type, e.data])).toEqual([
      ['cli-account-0', 1, 'CliDeposited', { amount: 1 }],
      ['cli-account-0', 2, 'CliDeposited', { amount: 3 }],
      ['cli-account-0', 3, 'CliDeposited', { amount: 5 }],
    ]);
    const usage: string[] = [];
    expect(await runReplayCommand(['stream'], context.store, (line) => usage.push(line))).toBe(1);
    expect(usage[0]).toMatch(/^usage: npm run replay -- stream <streamId>/);
  });
});
