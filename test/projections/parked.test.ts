import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runProjectionsCommand } from '../../scripts/projections.ts';
import { createEventStore, type EventStore, type Projection } from '../../src/infra/event-store/index.ts';
import { listParked, projectionStatus, rebuildProjection, startProjectionRunners } from '../../src/projections/runner/index.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/database.ts';
import { newEvent, totalsProjection } from './fixtures.ts';

// A projection marked to park poison events: the bad event is set aside with its error and the rest of the log is
// applied; once the projection is fixed, retry-parked applies it, and the read model equals a rebuild row for row.

describe.each(await databaseKinds())('parked events on %s', (kind) => {
  let database: TestDatabase;
  let store: EventStore;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    store = createEventStore(database);
  });
  afterAll(async () => {
    await database?.destroy();
  });

  test('parks the poison events, applies the rest, and after a fix retry-parked makes it equal to a rebuild', async () => {
    const totals = await totalsProjection(database.db);
    let poisoned = true;
    const fragile: Projection = {
      ...totals,
      onPoison: 'park',
      async apply(trx, events) {
        if (poisoned && events.some((e) => (e.data as { amount: number }).amount === 13)) throw new Error('unlucky amount 13');
        await totals.apply(trx, events);
      },
    };
    const amounts = [5, 8, 13, 2, 21, 3, 13, 34, 1, 9, 4, 6];
    for (const [i, amount] of amounts.entries()) {
      await store.append(`acct-${i % 3}`, 'account', [newEvent(i % 4 === 3 ? 'Withdrawn' : 'Deposited', { amount })], { expected: 'any' });
    }
    const rows = async () => (await sql<{ event_type: string; count: number; largest: number }>`select * from ${sql.id(totals.tables[0]!)} order by event_type`.execute(database.db)).rows;

    const stop = await startProjectionRunners(database, store, [fragile], { batchSize: 5, pollIntervalMs: 50, owner: 'park-test' });
    try {
      await expect.poll(async () => (await projectionStatus(database.db, { inline: [], async: [fragile] }))[0]!.lag, { timeout: 10_000 }).toBe(0);
    } finally {
      await stop();
    }
    const [status] = await projectionStatus(database.db, { inline: [], async: [fragile] });
    expect(status!.status).toBe('running');
    const parked = await listParked(database.db, fragile.name);
    expect(parked.map((p) => [p.eventType, p.error])).toEqual([
      ['Deposited', 'unlucky amount 13'],
      ['Deposited', 'unlucky amount 13'],
    ]);
    // Everything but the two 13s is in the read model.
    const expected = (skip13: boolean) => {
      const kinds = amounts.map((amount, i) => ({ amount, type: i % 4 === 3 ? 'Withdrawn' : 'Deposited' })).filter((e) => !(skip13 && e.amount === 13));
      return ['Deposited', 'Withdrawn'].map((type) => {
        const of = kinds.filter((e) => e.type === type).map((e) => e.amount);
        return { event_type: type, count: of.length, largest: Math.max(...of) };
      });
    };
    expect(await rows()).toEqual(expected(true));

    let lines: string[] = [];
    const run = async (...args: string[]) => {
      lines = [];
      const code = await runProjectionsCommand(args, { database, store, inline: [], async: [fragile], out: (line) => lines.push(line) });
      return { code, output: lines.join('\n') };
    };
    const listed = await run('parked');
    expect(listed.code).toBe(0);
    expect(listed.output.split('\n').filter((l) => l.startsWith(`${fragile.name}  #`) && l.includes('unlucky amount 13'))).toHaveLength(2);

    // Not fixed yet: they stay parked, one more try counted.
    expect(await run('retry-parked', fragile.name)).toEqual({ code: 2, output: 'applied 0 parked events; 2 still parked' });
    expect((await listParked(database.db, fragile.name)).map((p) => p.attempts)).toEqual([2, 2]);

    poisoned = false;
    expect(await run('retry-parked', fragile.name)).toEqual({ code: 0, output: 'applied 2 parked events; 0 still parked' });
    expect(await listParked(database.db, fragile.name)).toEqual([]);
    expect(await run('parked')).toEqual({ code: 0, output: 'no parked events' });
    expect(await run('retry-parked', 'nope')).toMatchObject({ code: 1 });

    const live = await rows();
    expect(live).toEqual(expected(false));
    await rebuildProjection(database, store, fragile, 'async');
    expect(await rows()).toEqual(live);
  });
});
