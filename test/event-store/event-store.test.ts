import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createEventStore,
  DuplicateEventIdError,
  EVENTS_CHANNEL,
  START,
  WrongExpectedVersionError,
  type EventMetadata,
  type EventStore,
  type InlineProjection,
  type NewEvent,
} from '../../src/infra/event-store/index.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/database.ts';

const metadata: EventMetadata = {
  actor: { kind: 'user', id: 'u-1' },
  commandId: 'c-1',
  timestamp: '2025-01-01T00:00:00.000Z',
};
const event = (type: string, data: unknown = {}, id?: string): NewEvent => ({ ...(id ? { id } : {}), type, data, metadata });
const streamId = (prefix = 'thing') => `${prefix}-${randomUUID()}`;

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe.each(await databaseKinds())('event store on %s', (kind) => {
  let database: TestDatabase;
  let store: EventStore;
  /** Appends seen by the inline projection, by stream. */
  const inlineCalls: { streamId: string; types: string[] }[] = [];
  const inline: InlineProjection = {
    name: 'test-counter',
    handles: ['Counted', 'Exploded'],
    tables: ['test_counts'],
    async apply(trx, events) {
      inlineCalls.push({ streamId: events[0]!.streamId, types: events.map((e) => e.type) });
      for (const e of events) {
        if (e.type === 'Exploded') throw new Error('projection refused');
        await sql`insert into test_counts (stream_id, count) values (${e.streamId}, 1)
          on conflict (stream_id) do update set count = test_counts.count + 1`.execute(trx);
      }
    },
  };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await sql`create table test_counts (stream_id text primary key, count integer not null)`.execute(database.db);
    store = createEventStore(database, {
      inline: [inline],
      upcasters: [
        { type: 'Renamed', fromVersion: 1, upcast: (data) => ({ fullName: (data as { name: string }).name }) },
        { type: 'Renamed', fromVersion: 2, upcast: (data) => ({ ...(data as object), source: 'v3' }) },
      ],
    });
  });
  afterAll(async () => {
    await database?.destroy();
  });

  const countEvents = async (id: string) =>
    Number((await database.db.selectFrom('es_events').select((eb) => eb.fn.countAll().as('n')).where('stream_id', '=', id).executeTakeFirstOrThrow()).n);

  test('50 concurrent appends at the same expected version: one wins, the others conflict naming the actual version', async () => {
    const id = streamId();
    await store.append(id, 'thing', [event('Created')], { expected: 'no_stream' });
    const attempts = Array.from({ length: 50 }, (_, i) =>
      store.append(id, 'thing', [event('Changed', { attempt: i }), event('Changed', { attempt: i, second: true })], { expected: 1 }),
    );
    const results = await Promise.allSettled(attempts);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r) => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(49);
    for (const r of lost) {
      expect(r.reason).toBeInstanceOf(WrongExpectedVersionError);
      expect((r.reason as WrongExpectedVersionError).actual).toBe(3);
      expect((r.reason as Error).message).toContain('at version 3');
    }
    // Nothing partial: the winner's two events and nothing of the losers.
    const { version, events } = await store.readStream(id);
    expect(version).toBe(3);
    expect(events.map((e) => e.streamPosition)).toEqual([1, 2, 3]);
    const winner = (won[0] as PromiseFulfilledResult<{ events: { data: unknown }[] }>).value.events.map((e) => e.data);
    expect(events.slice(1).map((e) => e.data)).toEqual(winner);
    expect(await countEvents(id)).toBe(3);
  });

  test('20 concurrent appends with any: all succeed, positions contiguous, none lost', async () => {
    const id = streamId();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.append(id, 'thing', [event('Changed', { i }), event('Changed', { i, part: 2 })], { expected: 'any' })),
    );
    const { version, events } = await store.readStream(id);
    expect(version).toBe(40);
    expect(events.map((e) => e.streamPosition)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    // Each append's two events sit side by side, and every append is there once.
    for (const result of results) {
      const [a, b] = result.events;
      expect(b!.streamPosition).toBe(a!.streamPosition + 1);
      expect(result.version).toBe(b!.streamPosition);
    }
    expect(new Set(events.map((e) => (e.data as { i: number }).i)).size).toBe(20);
    expect(new Set(results.map((r) => r.version)).size).toBe(20);
  });

  test('no_stream, stream_exists and exact versions are enforced', async () => {
    const id = streamId();
    const missing = await rejection(store.append(id, 'thing', [event('Changed')], { expected: 'stream_exists' }));
    expect(missing).toBeInstanceOf(WrongExpectedVersionError);
    expect((missing as WrongExpectedVersionError).actual).toBe('no_stream');
    expect(await countEvents(id)).toBe(0);
    // The refused append left no stream row behind either: no_stream still holds.
    await store.append(id, 'thing', [event('Created')], { expected: 'no_stream' });

    const exists = await rejection(store.append(id, 'thing', [event('Created')], { expected: 'no_stream' }));
    expect(exists).toBeInstanceOf(WrongExpectedVersionError);
    expect((exists as WrongExpectedVersionError).actual).toBe(1);
    const stale = await rejection(store.append(id, 'thing', [event('Changed')], { expected: 0 }));
    expect((stale as WrongExpectedVersionError).actual).toBe(1);
    const ahead = await rejection(store.append(id, 'thing', [event('Changed')], { expected: 2 }));
    expect((ahead as WrongExpectedVersionError).actual).toBe(1);

    expect((await store.append(id, 'thing', [event('Changed')], { expected: 'stream_exists' })).version).toBe(2);
    expect((await store.append(id, 'thing', [event('Changed')], { expected: 2 })).version).toBe(3);
    expect(await countEvents(id)).toBe(3);
  });

  test('an idempotent retry returns the first result and writes nothing; the same id with other content is refused', async () => {
    const id = streamId('counted');
    const ids = [randomUUID(), randomUUID()];
    const first = await store.append(id, 'thing', [event('Counted', { n: 1 }, ids[0]), event('Counted', { n: 2 }, ids[1])], {
      expected: 'no_stream',
    });
    const callsAfterFirst = inlineCalls.length;
    // A retry carries a new timestamp in its metadata and the expected state it had the first time.
    const retried = await store.append(
      id,
      'thing',
      [{ ...event('Counted', { n: 1 }, ids[0]), metadata: { ...metadata, timestamp: '2025-01-02T00:00:00.000Z' } }, event('Counted', { n: 2 }, ids[1])],
      { expected: 'no_stream' },
    );
    expect(retried.version).toBe(first.version);
    expect(retried.events.map((e) => [e.eventId, e.globalPosition, e.streamPosition, e.transactionId])).toEqual(
      first.events.map((e) => [e.eventId, e.globalPosition, e.streamPosition, e.transactionId]),
    );
    expect(await countEvents(id)).toBe(2);
    expect(inlineCalls.length).toBe(callsAfterFirst);
    const counted = await sql<{ count: number }>`select count from test_counts where stream_id = ${id}`.execute(database.db);
    expect(counted.rows).toEqual([{ count: 2 }]);

    // Still the first result after the stream has moved on, and when the same append races itself.
    await store.append(id, 'thing', [event('Counted', { n: 3 })], { expected: 2 });
    const late = await store.append(id, 'thing', [event('Counted', { n: 1 }, ids[0]), event('Counted', { n: 2 }, ids[1])], { expected: 'no_stream' });
    expect(late.version).toBe(2);
    const racing = streamId('counted');
    const raceIds = [randomUUID(), randomUUID()];
    const raced = await Promise.all(
      Array.from({ length: 5 }, () => store.append(racing, 'thing', raceIds.map((raceId) => event('Counted', {}, raceId)), { expected: 'no_stream' })),
    );
    expect(new Set(raced.map((r) => r.events.map((e) => e.globalPosition).join()))).toHaveProperty('size', 1);
    expect(await countEvents(racing)).toBe(2);

    const otherData = await rejection(store.append(id, 'thing', [event('Counted', { n: 99 }, ids[0]), event('Counted', { n: 2 }, ids[1])], { expected: 'any' }));
    expect(otherData).toBeInstanceOf(DuplicateEventIdError);
    expect((otherData as Error).message).toContain(ids[0]);
    const partOnly = await rejection(store.append(id, 'thing', [event('Counted', { n: 1 }, ids[0])], { expected: 'any' }));
    expect(partOnly).toBeInstanceOf(DuplicateEventIdError);
    const otherStream = await rejection(store.append(streamId(), 'thing', [event('Counted', { n: 1 }, ids[0]), event('Counted', { n: 2 }, ids[1])], { expected: 'any' }));
    expect(otherStream).toBeInstanceOf(DuplicateEventIdError);
    expect(await countEvents(id)).toBe(3);
  });

  test('inline projections run in the append transaction, get only their event types, and roll back with it', async () => {
    const id = streamId('inline');
    inlineCalls.length = 0;
    await store.append(id, 'thing', [event('Counted'), event('Ignored'), event('Counted')], { expected: 'no_stream' });
    expect(inlineCalls).toEqual([{ streamId: id, types: ['Counted', 'Counted'] }]);

    await store.append(id, 'thing', [event('Ignored')], { expected: 'any' });
    expect(inlineCalls).toHaveLength(1);

    const refused = await rejection(store.append(id, 'thing', [event('Counted'), event('Exploded')], { expected: 'any' }));
    expect((refused as Error).message).toBe('projection refused');
    expect(await countEvents(id)).toBe(4);
    const row = await sql<{ count: number }>`select count from test_counts where stream_id = ${id}`.execute(database.db);
    expect(row.rows[0]!.count).toBe(2);
  });

  test('readAll returns the log in commit-safe order from a checkpoint, filtered by type, upcast on read', async () => {
    const a = streamId('log');
    const b = streamId('log');
    await store.append(a, 'log', [{ ...event('Renamed', { name: 'Ada' }), schemaVersion: 1 }, event('Noted', { x: 1 })], { expected: 'no_stream' });
    await store.append(b, 'log', [{ ...event('Renamed', { fullName: 'Bo' }), schemaVersion: 2 }], { expected: 'no_stream' });
    // A commit-safe read shows a commit once every transaction that began before it has ended, anywhere in the
    // database cluster: on PostgreSQL other test files' transactions count too, and on a busy machine one may still
    // be running.
    await expect.poll(async () => (await store.readAll(START, 100_000, { types: ['Renamed'] })).some((e) => e.streamId === b), { timeout: 10_000 }).toBe(true);

    const all = [];
    for (let checkpoint = START; ; ) {
      const page = await store.readAll(checkpoint, 2);
      if (page.length === 0) break;
      all.push(...page);
      checkpoint = { transactionId: page.at(-1)!.transactionId, globalPosition: page.at(-1)!.globalPosition };
    }
    const ours = all.filter((e) => e.streamId === a || e.streamId === b);
    expect(ours.map((e) => [e.streamId, e.type])).toEqual([
      [a, 'Renamed'],
      [a, 'Noted'],
      [b, 'Renamed'],
    ]);
    // Pages never repeat or skip: global order is (transaction, position), and positions rise within it.
    expect(new Set(all.map((e) => e.eventId)).size).toBe(all.length);
    const total = Number((await database.db.selectFrom('es_events').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    expect(all).toHaveLength(total);

    const renamed = (await store.readAll(START, 1000, { types: ['Renamed'] })).filter((e) => e.streamId === a || e.streamId === b);
    expect(renamed.map((e) => [e.schemaVersion, e.data])).toEqual([
      [3, { fullName: 'Ada', source: 'v3' }],
      [3, { fullName: 'Bo', source: 'v3' }],
    ]);
    expect((await store.readStream(a)).events[0]).toMatchObject({ schemaVersion: 3, data: { fullName: 'Ada', source: 'v3' }, streamType: 'log', metadata });

    // An event appended without a schema version is written at its type's current one, so no writer has to bump it.
    const c = streamId('log');
    await store.append(c, 'log', [event('Renamed', { fullName: 'Cy', source: 'v3' })], { expected: 'no_stream' });
    expect((await store.readStream(c)).events[0]).toMatchObject({ schemaVersion: 3, data: { fullName: 'Cy', source: 'v3' } });
  });


  test('readAll gives each event as readStream does, every field (PGlite reads a page as one JSON value)', async () => {
    const id = streamId('whole');
    const data = { text: 'tab\t "quoted" ünïcødé 🃏 \\ back', nested: { list: [1, 2.5, null, true], empty: {} }, big: 2 ** 52 };
    await store.append(id, 'whole', [event('Noted', data), event('Noted', { n: 2 }), { ...event('Renamed', { name: 'Cy' }), schemaVersion: 1 }], {
      expected: 'no_stream',
    });
    let read: Awaited<ReturnType<EventStore['readAll']>> = [];
    await expect.poll(async () => (read = (await store.readAll(START, 100_000)).filter((e) => e.streamId === id)).length, { timeout: 10_000 }).toBe(3);
    const { events } = await store.readStream(id);
    expect(read).toEqual(events);
    expect(read[0]!.recordedAt).toBeInstanceOf(Date);
    expect(read[0]!.data).toEqual(data);
    expect(read[2]!.data).toEqual({ fullName: 'Cy', source: 'v3' });
  });
  test('readAll leaves out the payload parts asked for, only where a payload is at its latest version', async () => {
    const id = streamId('parts');
    const graded = { card: { name: 'Pikachu', measurements: { corners: [1, 2] }, labels: ['x'] }, owner: 'u' };
    await store.append(
      id,
      'parts',
      [
        event('Measured', graded),
        { ...event('Renamed', { fullName: 'Cy', measurements: [1] }), schemaVersion: 2 },
        { ...event('Renamed', { fullName: 'Bo', source: 'v3', measurements: [2] }), schemaVersion: 3 },
        event('Noted', graded),
      ],
      { expected: 'no_stream' },
    );
    // Commit-safe reads show the append once every transaction begun before it has ended (see above).
    const read = async (leaveOut?: Record<string, string[]>) => {
      let events: Awaited<ReturnType<EventStore['readAll']>> = [];
      await expect.poll(async () => (events = (await store.readAll(START, 100_000, { leaveOut })).filter((e) => e.streamId === id)).length, { timeout: 10_000 }).toBe(4);
      return events.map((e) => e.data);
    };
    expect(await read({ Measured: ['card.measurements', 'card.labels', 'card.absent', 'nowhere.at.all'], Renamed: ['measurements'] })).toEqual([
      { card: { name: 'Pikachu' }, owner: 'u' },
      // An older version goes to its upcasters whole.
      { fullName: 'Cy', measurements: [1], source: 'v3' },
      { fullName: 'Bo', source: 'v3' },
      graded,
    ]);
    expect(await read()).toEqual([graded, { fullName: 'Cy', measurements: [1], source: 'v3' }, { fullName: 'Bo', source: 'v3', measurements: [2] }, graded]);
  });

  test('the events table refuses UPDATE, DELETE and TRUNCATE', async () => {
    const id = streamId();
    await store.append(id, 'thing', [event('Created')], { expected: 'no_stream' });
    await expect(sql`update es_events set event_type = 'Forged' where stream_id = ${id}`.execute(database.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from es_events where stream_id = ${id}`.execute(database.db)).rejects.toThrow(/append-only/);
    await expect(sql`truncate es_events cascade`.execute(database.db)).rejects.toThrow(/append-only/);
    expect((await store.readStream(id)).events.map((e) => e.type)).toEqual(['Created']);
  });

  test('an append notifies listeners when it commits', async () => {
    const heard: string[] = [];
    const stop = await database.listen(EVENTS_CHANNEL, (payload) => heard.push(payload));
    try {
      await store.append(streamId(), 'thing', [event('Created')], { expected: 'no_stream' });
      await expect.poll(() => heard.length, { timeout: 2000 }).toBeGreaterThan(0);
    } finally {
      await stop();
    }
  });

  test('a stream keeps its type', async () => {
    const id = streamId();
    await store.append(id, 'thing', [event('Created')], { expected: 'no_stream' });
    await expect(store.append(id, 'other', [event('Created')], { expected: 'any' })).rejects.toThrow(/is a thing/);
  });
});
