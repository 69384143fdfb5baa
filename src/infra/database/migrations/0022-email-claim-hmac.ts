import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { EMAIL_CLAIM_SECRET, emailClaimStreamIdOf } from '../../../commands/accounts/streams.ts';

// The email-claim streams move from `user-email-<sha256 of the address>`, which anyone can reverse by hashing a list
// of addresses (an erased account's claim stream stays in the log), to `email-claim-<HMAC>` under a server secret
// (issue 34; src/commands/accounts/streams.ts). The new id is computed from the old one alone, so no address is read
// (most are sealed, some erased). The events keep everything but their stream's name: positions, ids, payloads.
// The log's append-only trigger is set aside for this one statement only.

const BATCH = 500;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`insert into server_secrets (name, secret, created_at) values (${EMAIL_CLAIM_SECRET}, ${randomBytes(32).toString('base64')}, now())
    on conflict (name) do nothing`.execute(db);
  const { rows: secrets } = await sql<{ secret: string }>`select secret from server_secrets where name = ${EMAIL_CLAIM_SECRET}`.execute(db);
  const secret = Buffer.from(secrets[0]!.secret, 'base64');
  const { rows: streams } = await sql<{ stream_id: string }>`select stream_id from es_streams where stream_id like 'user-email-%'`.execute(db);
  if (streams.length === 0) return;

  await sql`create temporary table email_claim_moves (old_id text primary key, new_id text not null unique)`.execute(db);
  for (let from = 0; from < streams.length; from += BATCH) {
    const moves = streams.slice(from, from + BATCH).map(({ stream_id }) => sql`(${stream_id}, ${emailClaimStreamIdOf(stream_id, secret)})`);
    await sql`insert into email_claim_moves (old_id, new_id) values ${sql.join(moves)}`.execute(db);
  }
  await sql`insert into es_streams (stream_id, stream_type, version)
    select m.new_id, s.stream_type, s.version from es_streams s join email_claim_moves m on m.old_id = s.stream_id`.execute(db);
  await sql`alter table es_events disable trigger es_events_append_only`.execute(db);
  await sql`update es_events e set stream_id = m.new_id from email_claim_moves m where e.stream_id = m.old_id`.execute(db);
  await sql`alter table es_events enable trigger es_events_append_only`.execute(db);
  await sql`delete from es_streams s using email_claim_moves m where s.stream_id = m.old_id`.execute(db);
  await sql`drop table email_claim_moves`.execute(db);
}

/** One way only: the old ids were the weakness, and their addresses cannot be read back from the new ones. */
export async function down(): Promise<void> {}
