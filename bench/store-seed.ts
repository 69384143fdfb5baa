// Seeds for bench:store: the mixed history of test/projections/mixed-history.ts, written straight into the log's
// tables (replay is what is measured, not appends).
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../src/infra/database/database.ts';
import type { EventMetadata } from '../src/infra/event-store/index.ts';
import { mixedHistory, type HistoryEvent } from '../test/projections/mixed-history.ts';

const metadata: EventMetadata = { actor: { kind: 'system', id: 'bench' }, commandId: 'bench', timestamp: '2025-01-01T00:00:00.000Z' };

/** About `events` events in the log; returns how many of each type. */
export async function seedHistory(database: Database, events: number): Promise<Record<string, number>> {
  const versions = new Map<string, number>();
  const counts = await mixedHistory(events, async (pending: HistoryEvent[]) => {
    const newStreams = [...new Map(pending.filter((e) => !versions.has(e.streamId)).map((e) => [e.streamId, e.streamType]))];
    if (newStreams.length > 0) {
      await database.db
        .insertInto('es_streams')
        .values(newStreams.map(([stream_id, stream_type]) => ({ stream_id, stream_type, version: 0 })))
        .execute();
    }
    const rows = pending.map((event) => {
      const position = (versions.get(event.streamId) ?? 0) + 1;
      versions.set(event.streamId, position);
      return {
        stream_id: event.streamId,
        stream_position: position,
        event_id: randomUUID(),
        event_type: event.type,
        schema_version: 1,
        data: JSON.stringify(event.data),
        metadata: JSON.stringify(metadata),
        recorded_at: new Date(),
      };
    });
    await database.db.insertInto('es_events').values(rows).execute();
  });
  await sql`update es_streams s set version = e.version from (select stream_id, max(stream_position) as version from es_events group by stream_id) e
    where e.stream_id = s.stream_id`.execute(database.db);
  return counts;
}
