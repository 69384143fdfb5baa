import { isDeepStrictEqual } from 'node:util';
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { randomIds, systemClock, type Clock, type IdGenerator } from '../clock/clock.ts';
import type { Database } from '../database/database.ts';
import type { Tables } from '../database/schema.ts';
import {
  DuplicateEventIdError,
  WrongExpectedVersionError,
  type AppendResult,
  type Checkpoint,
  type EventMetadata,
  type EventStore,
  type ExpectedState,
  type InlineProjection,
  type NewEvent,
  type ReadAllOptions,
  type RecordedEvent,
  type Upcaster,
} from './types.ts';
import { upcasters } from './upcasters.ts';
import { createPersonKeys } from '../personal-data/person-keys.ts';
import { createPersonalDataSealer, type PersonalDataSealer } from '../personal-data/sealed-fields.ts';

/** Notified by every append when it commits, so async runners wake at once instead of at their next poll. */
export const EVENTS_CHANNEL = 'es_events';

export interface EventStoreOptions {
  /** Run in every append's transaction, each given only the event types it handles. */
  inline?: readonly InlineProjection[];
  /** Old payload versions lifted on read; the registry in ./upcasters.ts by default. */
  upcasters?: readonly Upcaster[];
  /** Stamps `recordedAt`. */
  clock?: Clock;
  /** Ids for events appended without one. */
  ids?: IdGenerator;
  /** Seals personal fields on append and opens them on read; by default with the keys in `person_keys`. */
  personalData?: PersonalDataSealer;
}

const UNIQUE_VIOLATION = '23505';
const NOTIFY_WINDOW_MS = 5;
/** PostgreSQL takes notification payloads under 8,000 bytes; more types than fit wake every runner. */
const MAX_NOTIFY_PAYLOAD = 7_000;

export function createEventStore(database: Database, options: EventStoreOptions = {}): EventStore {
  const { db } = database;
  const inline = options.inline ?? [];
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds;
  const personalData = options.personalData ?? createPersonalDataSealer(createPersonKeys(db));
  const upcast = upcasterChain(options.upcasters ?? upcasters);
  // The version each type's upcasters lift payloads to. A type without upcasters is at its latest whatever its version.
  const latestVersions = new Map<string, number>();
  for (const { type, fromVersion } of options.upcasters ?? upcasters) latestVersions.set(type, Math.max(latestVersions.get(type) ?? 0, fromVersion + 1));

  // Async runners wake on this notification (and poll besides). It is sent after commit, one per short window for
  // many appends: a NOTIFY inside the append's transaction takes a database-wide lock held through its commit, so
  // notifying appends would commit one at a time, and each would pay a statement more. It names the event types
  // appended in the window, so a runner wakes only for events it handles (each wake costs it a transaction): a
  // portfolio edit wakes neither the leaderboard nor the achievements. An empty payload means "look anyway".
  const pendingTypes = new Set<string>();
  function wakeRunners(types: Iterable<string>): void {
    const wasPending = pendingTypes.size > 0;
    for (const type of types) pendingTypes.add(type);
    if (wasPending) return;
    setTimeout(() => {
      const payload = [...pendingTypes].join(',');
      pendingTypes.clear();
      sql`select pg_notify(${EVENTS_CHANNEL}, ${payload.length <= MAX_NOTIFY_PAYLOAD ? payload : ''})`.execute(db).catch(() => {
        // Closed or unreachable: runners still poll.
      });
    }, NOTIFY_WINDOW_MS).unref();
  }

  /** The payload as read: without the parts `leaveOut` names for its type, where it is at the type's latest version. */
  function payload(leaveOut: ReadAllOptions['leaveOut'] = {}): RawBuilder<unknown> {
    const cuts = Object.entries(leaveOut)
      .filter(([, paths]) => paths.length > 0)
      .map(([type, paths]) => {
        const latest = latestVersions.get(type);
        const isType = latest === undefined ? sql`e.event_type = ${type}` : sql`e.event_type = ${type} and e.schema_version >= ${latest}`;
        const cut = paths.reduce((data, path) => sql`${data} #- array[${sql.join(path.split('.').map((key) => sql.lit(key)))}]`, sql`e.data`);
        return sql`when ${isType} then ${cut}`;
      });
    return cuts.length === 0 ? sql`e.data` : sql`case ${sql.join(cuts, sql` `)} else e.data end`;
  }

  function selectEvents(executor: Kysely<Tables>, data = payload()) {
    return executor
      .selectFrom('es_events as e')
      .innerJoin('es_streams as s', 's.stream_id', 'e.stream_id')
      .select([
        'e.global_position',
        sql<string>`e.transaction_id::text`.as('transaction_id'),
        'e.stream_id',
        's.stream_type',
        'e.stream_position',
        'e.event_id',
        'e.event_type',
        'e.schema_version',
        data.as('data'),
        'e.metadata',
        'e.recorded_at',
      ]);
  }
  type EventRow = Awaited<ReturnType<ReturnType<typeof selectEvents>['execute']>>[number];

  /** The columns of an event row, in the order a page as JSON gives them (readAll). */
  const PAGE_COLUMNS = [
    'global_position',
    'transaction_id',
    'stream_id',
    'stream_type',
    'stream_position',
    'event_id',
    'event_type',
    'schema_version',
    'data',
    'metadata',
    'recorded_at',
  ] as const satisfies readonly (keyof EventRow)[];

  /** An event row from a page as JSON: its values in PAGE_COLUMNS's order, the time as text. */
  function pageRow(values: readonly unknown[]): EventRow {
    const [globalPosition, transactionId, streamId, streamType, streamPosition, eventId, eventType, schemaVersion, data, metadata, recordedAt] = values;
    return {
      global_position: globalPosition,
      transaction_id: transactionId,
      stream_id: streamId,
      stream_type: streamType,
      stream_position: streamPosition,
      event_id: eventId,
      event_type: eventType,
      schema_version: schemaVersion,
      data,
      metadata,
      recorded_at: new Date(recordedAt as string),
    } as EventRow;
  }

  function toRecorded(row: EventRow): RecordedEvent {
    const { schemaVersion, data } = upcast(row.event_type, row.schema_version, row.data);
    return {
      globalPosition: row.global_position,
      transactionId: row.transaction_id,
      streamId: row.stream_id,
      streamType: row.stream_type,
      streamPosition: row.stream_position,
      eventId: row.event_id,
      type: row.event_type,
      schemaVersion,
      data,
      metadata: row.metadata as EventMetadata,
      recordedAt: row.recorded_at,
    };
  }

  async function readAll(after: Checkpoint, limit: number, readOptions: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    if (readOptions.types?.length === 0) return [];
    const query = selectPage(after, limit, readOptions);
    if (database.kind === 'pglite') {
      // PGlite hands every value of every row through its JavaScript decoder, a copy and a decode each: eleven values
      // an event. One JSON value for the whole page is one decode and one JSON.parse, and took a replay's reads of
      // 100,000 events from 3.6-6.0 s to 2.3-2.9 s. (PostgreSQL's client parses rows faster than PostgreSQL builds
      // the JSON: there the rows come as rows.)
      const { rows } = await sql<{ page: string }>`
        select coalesce(json_agg(json_build_array(${sql.join(PAGE_COLUMNS.map((column) => sql.ref(`p.${column}`)))}) order by p.commit_order), '[]')::text as page
        from (${query.select(sql<number>`row_number() over (order by e.transaction_id, e.global_position)`.as('commit_order'))}) p`.execute(readOptions.trx ?? db);
      return personalData.open((JSON.parse(rows[0]!.page) as unknown[][]).map((values) => toRecorded(pageRow(values))), readOptions.trx);
    }
    const rows = await query.execute();
    return personalData.open(rows.map(toRecorded), readOptions.trx);
  }

  /** One page of the log after the checkpoint, in commit order (see readAll). */
  function selectPage(after: Checkpoint, limit: number, readOptions: ReadAllOptions) {
    let query = selectEvents(readOptions.trx ?? db, payload(readOptions.leaveOut))
      .where(sql<boolean>`(e.transaction_id, e.global_position) > (${after.transactionId}::xid8, ${after.globalPosition}::bigint)`)
      .orderBy(sql`e.transaction_id`)
      .orderBy('e.global_position')
      .limit(limit);
    // A transaction's id is taken before it commits, so a lower id can commit after a higher one. Below the
    // oldest running transaction (the snapshot's xmin) everything has committed or never will: reading only there,
    // in (transaction_id, global_position) order, nobody can later commit in front of a checkpoint.
    if ((readOptions.horizon ?? 'commit-safe') === 'commit-safe') {
      query = query.where(sql<boolean>`e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())`);
    }
    if (readOptions.types) query = query.where('e.event_type', 'in', readOptions.types);
    return query;
  }

  /**
   * A retry of an append that already happened: the same events (ids and content) as that append wrote, all of
   * them and no more; its events share one transaction id. Anything else that reuses an id is refused.
   */
  async function findEarlierAppend(streamId: string, events: readonly PreparedEvent[]): Promise<AppendResult | undefined> {
    const found = await db
      .selectFrom('es_events')
      .select(['event_id', sql<string>`transaction_id::text`.as('transaction_id')])
      .where('event_id', 'in', events.map((e) => e.id))
      .limit(1)
      .executeTakeFirst();
    if (!found) return undefined;
    const rows = await selectEvents(db)
      .where('e.stream_id', '=', streamId)
      .where(sql<boolean>`e.transaction_id = ${found.transaction_id}::xid8`)
      .orderBy('e.stream_position')
      .execute();
    if (rows.length !== events.length) throw new DuplicateEventIdError(found.event_id);
    // Compared as read: personal fields were sealed with a fresh IV each, so the stored bytes differ every time.
    const recorded = await personalData.open(rows.map(toRecorded));
    const byId = new Map(rows.map((row, index) => [row.event_id, { row, data: recorded[index]!.data }]));
    for (const event of events) {
      const earlier = byId.get(event.id);
      // Metadata is left out on purpose: a retried command carries a new timestamp.
      const same =
        earlier !== undefined &&
        earlier.row.stream_id === streamId &&
        earlier.row.event_type === event.type &&
        earlier.row.schema_version === event.schemaVersion &&
        isDeepStrictEqual(earlier.data, event.data);
      if (!same) throw new DuplicateEventIdError(earlier ? event.id : found.event_id);
    }
    return { version: recorded.at(-1)!.streamPosition, events: recorded };
  }

  async function append(
    streamId: string,
    streamType: string,
    newEvents: readonly NewEvent[],
    appendOptions: { expected: ExpectedState },
  ): Promise<AppendResult> {
    const { expected } = appendOptions;
    if (newEvents.length === 0) {
      const { version } = await readStream(streamId);
      checkExpected(streamId, expected, version);
      return { version, events: [] };
    }
    const recordedAt = clock.now();
    const events = newEvents.map((event) => prepare(event, ids, latestVersions.get(event.type) ?? 1));
    const anyIdGiven = newEvents.some((event) => event.id !== undefined);

    try {
      const result = await db.transaction().execute(async (trx) => {
        // The stream row is the append's lock: writers to one stream queue here, writers to others never meet.
        // One statement creates it if need be, locks it and reads its version.
        const stream = await trx
          .insertInto('es_streams')
          .values({ stream_id: streamId, stream_type: streamType, version: 0 })
          .onConflict((conflict) => conflict.column('stream_id').doUpdateSet({ version: (eb) => eb.ref('es_streams.version') }))
          .returning(['version', 'stream_type'])
          .executeTakeFirstOrThrow();
        if (stream.stream_type !== streamType) {
          throw new Error(`Stream ${streamId} is a ${stream.stream_type}, not a ${streamType}`);
        }
        checkExpected(streamId, expected, stream.version);

        const version = stream.version + events.length;
        const stored = await personalData.seal(trx, events);
        const inserted = await trx
          .with('bumped', (db) => db.updateTable('es_streams').set({ version }).where('stream_id', '=', streamId))
          .insertInto('es_events')
          .values(
            events.map((event, index) => ({
              stream_id: streamId,
              stream_position: stream.version + 1 + index,
              event_id: event.id,
              event_type: event.type,
              schema_version: event.schemaVersion,
              data: stored[index] === event.data ? event.dataJson : JSON.stringify(stored[index]),
              metadata: event.metadataJson,
              recorded_at: recordedAt,
            })),
          )
          .returning(['stream_position', 'global_position', sql<string>`transaction_id::text`.as('transaction_id')])
          .execute();

        const byPosition = new Map(inserted.map((row) => [row.stream_position, row]));
        const recorded = events.map((event, index): RecordedEvent => {
          const row = byPosition.get(stream.version + 1 + index)!;
          return {
            globalPosition: row.global_position,
            transactionId: row.transaction_id,
            streamId,
            streamType,
            streamPosition: row.stream_position,
            eventId: event.id,
            type: event.type,
            schemaVersion: event.schemaVersion,
            data: event.data,
            metadata: event.metadata,
            recordedAt,
          };
        });
        await applyInline(trx, inline, recorded);
        return { version, events: recorded };
      });
      wakeRunners(result.events.map((event) => event.type));
      return result;
    } catch (error) {
      const idTaken = isUniqueViolation(error, 'es_events_event_id_key');
      // A retry of an append that already happened fails here, on the version or on the ids: it gets the first
      // result. Looking only on failure keeps the usual append free of the extra read.
      if (anyIdGiven && (idTaken || error instanceof WrongExpectedVersionError)) {
        const earlier = await findEarlierAppend(streamId, events);
        if (earlier) return earlier;
      }
      if (idTaken) {
        const detail = `${(error as Error).message} ${(error as { detail?: string }).detail ?? ''}`;
        throw new DuplicateEventIdError(events.find((event) => detail.includes(event.id))?.id ?? events[0]!.id);
      }
      throw error;
    }
  }

  async function readStream(streamId: string): Promise<{ version: number; events: RecordedEvent[] }> {
    const rows = await selectEvents(db).where('e.stream_id', '=', streamId).orderBy('e.stream_position').execute();
    const events = await personalData.open(rows.map(toRecorded));
    return { version: events.at(-1)?.streamPosition ?? 0, events };
  }

  return { append, readStream, readAll };
}

interface PreparedEvent {
  id: string;
  type: string;
  schemaVersion: number;
  /** As a read will return it: the JSON round trip drops undefined fields and turns dates into strings. */
  data: unknown;
  dataJson: string;
  metadata: EventMetadata;
  metadataJson: string;
}

/** `latestVersion`: what an event that names no schema version is written at, its type's current one. */
function prepare(event: NewEvent, ids: IdGenerator, latestVersion: number): PreparedEvent {
  const dataJson = JSON.stringify(event.data ?? null);
  const metadataJson = JSON.stringify(event.metadata);
  return {
    id: event.id ?? ids.uuid(),
    type: event.type,
    schemaVersion: event.schemaVersion ?? latestVersion,
    data: JSON.parse(dataJson),
    dataJson,
    metadata: JSON.parse(metadataJson) as EventMetadata,
    metadataJson,
  };
}

function checkExpected(streamId: string, expected: ExpectedState, version: number): void {
  const ok =
    expected === 'any' ||
    (expected === 'no_stream' && version === 0) ||
    (expected === 'stream_exists' && version > 0) ||
    expected === version;
  if (!ok) throw new WrongExpectedVersionError(streamId, expected, version === 0 ? 'no_stream' : version);
}

/** Each projection gets only the events it handles, in order; one that handles none is not called. */
export async function applyInline(
  trx: Transaction<Tables>,
  projections: readonly InlineProjection[],
  events: readonly RecordedEvent[],
): Promise<void> {
  for (const projection of projections) {
    const handled = events.filter((event) => projection.handles.includes(event.type));
    if (handled.length > 0) await projection.apply(trx, handled);
  }
}

/**
 * A stored payload lifted to its type's current version by the registry's upcasters, as every read of the store
 * lifts it: for a read of one event's payload straight from es_events (the card's result: cards/queries.ts).
 */
export const upcastStored = upcasterChain(upcasters);

function upcasterChain(upcasters: readonly Upcaster[]) {
  const byKey = new Map(upcasters.map((u) => [`${u.type}@${u.fromVersion}`, u]));
  return (type: string, schemaVersion: number, data: unknown): { schemaVersion: number; data: unknown } => {
    let version = schemaVersion;
    let current = data;
    for (let upcaster = byKey.get(`${type}@${version}`); upcaster; upcaster = byKey.get(`${type}@${version}`)) {
      current = upcaster.upcast(current);
      version++;
    }
    return { schemaVersion: version, data: current };
  };
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, constraint: name, message } = error as { code?: string; constraint?: string; message?: string };
  return code === UNIQUE_VIOLATION && (name === constraint || (message ?? '').includes(constraint));
}
