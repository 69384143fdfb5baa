import { sql, type Kysely } from 'kysely';
import type { Tables } from '../database/schema.ts';
import { upcastStored } from '../event-store/event-store.ts';
import type { PersonalDataSealer } from './sealed-fields.ts';

// Every event recorded about a person, as the store reads them (personal fields opened), for their export (Art. 20):
// their own streams, and every event whose payload or actor names them or one of their guest sessions.

export interface PersonalEvent {
  position: number;
  stream: string;
  type: string;
  schemaVersion: number;
  data: unknown;
  metadata: unknown;
  recordedAt: string;
}

export async function personalEvents(db: Kysely<Tables>, sealer: PersonalDataSealer, userId: string, guestIds: readonly string[]): Promise<PersonalEvent[]> {
  const owners = [`user:${userId}`, ...guestIds.map((guestId) => `guest:${guestId}`)];
  const actors = [userId, ...guestIds];
  const { rows } = await sql<{ global_position: string | number; stream_id: string; event_type: string; schema_version: number; data: unknown; metadata: unknown; recorded_at: Date }>`
    select global_position, stream_id, event_type, schema_version, data, metadata, recorded_at from es_events
    where data->>'userId' = ${userId}
       or data->>'owner' in (${sql.join(owners)}) or data->>'from' in (${sql.join(owners)}) or data->>'to' in (${sql.join(owners)})
       or metadata->'actor'->>'id' in (${sql.join(actors)})
    order by global_position`.execute(db);
  const events = rows.map((row) => {
    const { schemaVersion, data } = upcastStored(row.event_type, row.schema_version, typeof row.data === 'string' ? JSON.parse(row.data) : row.data);
    return {
      position: Number(row.global_position),
      stream: row.stream_id,
      type: row.event_type,
      schemaVersion,
      data,
      metadata: typeof row.metadata === 'string' ? JSON.parse(row.metadata) : row.metadata,
      recordedAt: new Date(row.recorded_at).toISOString(),
    };
  });
  return sealer.open(events);
}
