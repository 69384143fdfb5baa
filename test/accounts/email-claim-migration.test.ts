import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, type RegisterUserInput } from '../../src/commands/accounts/register-user.ts';
import { emailClaimSecret, emailClaimStream, legacyEmailClaimStreamId } from '../../src/commands/accounts/streams.ts';
import * as emailClaimHmac from '../../src/infra/database/migrations/0022-email-claim-hmac.ts';
import { createEventStore, type EventMetadata, type EventStore } from '../../src/infra/event-store/index.ts';
import { inlineProjections } from '../../src/projections/index.ts';
import { usernamesLike } from '../../src/projections/users/queries.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/database.ts';

// Migration 0022 (issue 34): email-claim streams written under `user-email-<sha256 of the address>` move to their
// keyed id, and are found there: the address stays taken, its plain hash is nowhere in the database any more.

const metadata: EventMetadata = { actor: { kind: 'system', id: 'test' }, commandId: 'c', timestamp: '2026-03-01T12:00:00.000Z' };
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe.each(await databaseKinds())('email-claim streams moved to keyed ids on %s', (kind) => {
  let database: TestDatabase;
  let store: EventStore;
  const claimed = ['Legacy.One@Example.com', 'legacy.two@example.com'];
  const claimants = claimed.map(() => crypto.randomUUID());
  const deps = () => ({ usernamesStartingWith: (base: string) => usernamesLike(database.db, base), emailClaimSecret: emailClaimSecret(database.db) });
  const newUser = (email: string): RegisterUserInput => {
    const userId = crypto.randomUUID();
    return { userId, email, passwordHash: 'x', firstName: 'Lee', lastName: 'Gacy', phone: '5551234567', marketingNotificationsEnabled: false, providerUserId: userId, providerToken: 'built-in', registeredAt: '2026-03-01T12:01:00.000Z' };
  };
  const streamIds = async () => (await sql<{ stream_id: string }>`select stream_id from es_streams where stream_type = 'user-email' order by 1`.execute(database.db)).rows.map((r) => r.stream_id);
  const logHolds = async (text: string) =>
    (await sql<{ found: boolean }>`select exists (select 1 from es_events e where position(${text} in e::text) > 0) or exists (select 1 from es_streams s where position(${text} in s::text) > 0) as found`.execute(database.db)).rows[0]!.found;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    store = createEventStore(database, { inline: inlineProjections });
    // Claims as a log written before 0022 holds them (registrations that had just claimed their address).
    for (const [n, email] of claimed.entries()) {
      await store.append(legacyEmailClaimStreamId(email), 'user-email', [{ type: 'EmailClaimed', data: { email, userId: claimants[n]!, claimedAt: metadata.timestamp }, metadata }], { expected: 'no_stream' });
    }
  });
  afterAll(() => database?.destroy());

  it('moves each stream to its keyed id, its events whole, and finds the claim there', async () => {
    const before = await sql<{ global_position: string; event_id: string; data: unknown }>`select global_position::text, event_id, data from es_events where event_type = 'EmailClaimed' order by global_position`.execute(database.db);
    expect(await logHolds(sha256('legacy.one@example.com'))).toBe(true);

    await emailClaimHmac.up(database.db as unknown as Kysely<unknown>);

    const secret = await emailClaimSecret(database.db)();
    expect(await streamIds()).toEqual(claimed.map((email) => emailClaimStream(email, secret).streamId).sort());
    for (const email of claimed) expect(await logHolds(sha256(email.toLowerCase()))).toBe(false);
    const after = await sql<{ global_position: string; event_id: string; data: unknown }>`select global_position::text, event_id, data from es_events where event_type = 'EmailClaimed' order by global_position`.execute(database.db);
    expect(after.rows).toEqual(before.rows);
    const moved = await store.readStream(emailClaimStream(claimed[0]!, secret).streamId);
    expect(moved.events.map((e) => [e.type, e.data])).toEqual([['EmailClaimed', { email: claimed[0], userId: claimants[0], claimedAt: metadata.timestamp }]]);

    // The address is still taken (claimed a minute ago), in any case; another registers as ever.
    await expect(registerUser({ store, metadata }, deps(), newUser('LEGACY.one@example.com'))).rejects.toMatchObject({ code: 'email_taken' });
    await registerUser({ store, metadata }, deps(), newUser('new.one@example.com'));
    expect(await logHolds(sha256('new.one@example.com'))).toBe(false);
  });

  it('again changes nothing, and the log stays append-only', async () => {
    const ids = await streamIds();
    await emailClaimHmac.up(database.db as unknown as Kysely<unknown>);
    expect(await streamIds()).toEqual(ids);
    await expect(sql`update es_events set stream_id = stream_id where event_type = 'EmailClaimed'`.execute(database.db)).rejects.toThrow(/append-only/);
  });
});
