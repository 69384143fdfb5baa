import { sql, type Kysely } from 'kysely';
import type { Tables } from '../database/schema.ts';

/** The guest sessions this user claimed (GuestSessionClaimed), read from the log: no read model keeps them. */
export async function claimedGuestIds(db: Kysely<Tables>, userId: string): Promise<string[]> {
  const { rows } = await sql<{ guest_id: string }>`
    select distinct data->>'guestId' as guest_id from es_events
    where event_type = 'GuestSessionClaimed' and data->>'userId' = ${userId}
    order by 1`.execute(db);
  return rows.map((row) => row.guest_id);
}
