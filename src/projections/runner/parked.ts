import { sql, type Kysely, type Transaction } from 'kysely';
import type { Tables } from '../../infra/database/schema.ts';
import type { EventStore, Projection, RecordedEvent } from '../../infra/event-store/types.ts';

// Poison events an async projection parked so the rest of the log could go on (a projection marked
// `onPoison: 'park'`), each with the error it raised; `npm run projections -- retry-parked` applies them again once the
// projection is fixed. The table is made here, if missing, rather than by a migration of its own: this work had one
// migration number, taken by feedback; a migration can take it over later unchanged (`if not exists`).

export interface ParkedEvent {
  projection: string;
  globalPosition: number;
  eventId: string;
  eventType: string;
  streamId: string;
  error: string;
  parkedAt: Date;
  attempts: number;
}

type Db = Kysely<Tables> | Transaction<Tables>;

export async function ensureParkedTable(db: Db): Promise<void> {
  await sql`create table if not exists es_parked_events (
    projection text not null,
    global_position bigint not null,
    event_id uuid not null,
    event_type text not null,
    stream_id text not null,
    error text not null,
    parked_at timestamptz not null default now(),
    attempts integer not null default 1,
    primary key (projection, global_position)
  )`.execute(db);
}

export async function parkEvent(trx: Transaction<Tables>, projection: string, event: RecordedEvent, error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  await sql`insert into es_parked_events (projection, global_position, event_id, event_type, stream_id, error)
    values (${projection}, ${event.globalPosition}, ${event.eventId}, ${event.type}, ${event.streamId}, ${message})
    on conflict (projection, global_position) do update set error = excluded.error, attempts = es_parked_events.attempts + 1`.execute(trx);
}

export async function listParked(db: Db, projection?: string): Promise<ParkedEvent[]> {
  await ensureParkedTable(db);
  const { rows } = await sql<{ projection: string; global_position: string; event_id: string; event_type: string; stream_id: string; error: string; parked_at: Date; attempts: number }>`
    select * from es_parked_events ${projection ? sql`where projection = ${projection}` : sql``} order by projection, global_position`.execute(db);
  return rows.map((r) => ({
    projection: r.projection,
    globalPosition: Number(r.global_position),
    eventId: r.event_id,
    eventType: r.event_type,
    streamId: r.stream_id,
    error: r.error,
    parkedAt: new Date(r.parked_at),
    attempts: r.attempts,
  }));
}

/**
 * Applies each parked event of these projections again, in log order, one transaction each: applied, it leaves the
 * table; failing again, it stays with the new error. Returns what was applied and what is still parked.
 */
export async function retryParked(
  db: Kysely<Tables>,
  store: EventStore,
  projections: readonly Projection[],
): Promise<{ applied: number; stillParked: number }> {
  const readEvent = async (parked: ParkedEvent) => (await store.readStream(parked.streamId)).events.find((e) => e.globalPosition === parked.globalPosition);
  let applied = 0;
  let stillParked = 0;
  for (const projection of projections) {
    for (const parked of await listParked(db, projection.name)) {
      try {
        const event = await readEvent(parked);
        await db.transaction().execute(async (trx) => {
          if (event) await projection.apply(trx, [event]);
          await sql`delete from es_parked_events where projection = ${projection.name} and global_position = ${parked.globalPosition}`.execute(trx);
        });
        applied++;
      } catch (error) {
        stillParked++;
        const event = await readEvent(parked);
        if (event) await db.transaction().execute((trx) => parkEvent(trx, projection.name, event, error));
      }
    }
  }
  return { applied, stillParked };
}
