import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimGuestSession } from '../../src/commands/accounts/claim-guest-session.ts';
import type { GuestDataClaimer } from '../../src/commands/accounts/guest-data-claimers.ts';
import { recordLogin } from '../../src/commands/accounts/record-login.ts';
import { registerUser, type RegisterUserInput } from '../../src/commands/accounts/register-user.ts';
import { renameEmailUsernames } from '../../src/commands/accounts/rename-email-usernames.ts';
import { emailClaimSecret, emailClaimStream, guestSessionStream, userStream } from '../../src/commands/accounts/streams.ts';
import { AppError } from '../../src/contracts/errors.ts';
import { ABANDONED_CLAIM_MS } from '../../src/domain/accounts/email-claim.ts';
import { createEventStore, type EventMetadata, type EventStore } from '../../src/infra/event-store/index.ts';
import { inlineProjections } from '../../src/projections/index.ts';
import { rebuildProjection } from '../../src/projections/runner/index.ts';
import { usersProjection } from '../../src/projections/users/users-projection.ts';
import { findUserByEmail, usernamesLike } from '../../src/projections/users/queries.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/database.ts';

const metadata: EventMetadata = {
  actor: { kind: 'guest', id: '00000000-0000-4000-8000-000000000001' },
  commandId: 'c1',
  timestamp: '2026-01-01T10:00:00.000Z',
};

let n = 0;
function newUser(email: string, registeredAt = '2026-01-01T10:00:00.000Z'): RegisterUserInput {
  n += 1;
  const userId = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  return {
    userId,
    email,
    passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g',
    firstName: 'Ada',
    lastName: 'Lovelace',
    phone: '5551234567',
    marketingNotificationsEnabled: false,
    providerUserId: userId,
    providerToken: 'built-in',
    registeredAt,
  };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return (error as AppError).code;
}

describe.each(await databaseKinds())('accounts commands on %s', (kind) => {
  let database: TestDatabase;
  let store: EventStore;
  const context = () => ({ store, metadata });
  const secret = () => emailClaimSecret(database.db)();
  const deps = () => ({ usernamesStartingWith: (base: string) => usernamesLike(database.db, base), emailClaimSecret: secret });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    store = createEventStore(database, { inline: inlineProjections });
  });
  afterAll(() => database?.destroy());

  it('registers a user: events in the email and user streams, a users row with a customer number', async () => {
    const input = newUser('Grace.Hopper@Example.com');
    const { username } = await registerUser(context(), deps(), input);
    // From the first name and the last initial, never from the email.
    expect(username).toBe('AdaL');

    const claim = await store.readStream(emailClaimStream('grace.hopper@example.com', await secret()).streamId);
    expect(claim.events.map((e) => [e.type, e.data])).toEqual([
      ['EmailClaimed', { email: 'Grace.Hopper@Example.com', userId: input.userId, claimedAt: input.registeredAt }],
    ]);
    const user = await store.readStream(userStream(input.userId).streamId);
    expect(user.events.map((e) => e.type)).toEqual(['UserRegistered']);
    expect(user.events[0]!.metadata).toEqual(metadata);

    const row = await findUserByEmail(database.db, 'GRACE.HOPPER@example.com');
    expect(row).toMatchObject({
      id: input.userId,
      username: 'AdaL',
      password: input.passwordHash,
      email: 'Grace.Hopper@Example.com',
      first_name: 'Ada',
      phone: '5551234567',
      ags_card_user_id: input.userId,
      ags_card_token: 'built-in',
      role: 'Member',
      marketing_notifications_enabled: false,
      customer_number: `CG-${String(user.events[0]!.globalPosition).padStart(6, '0')}`,
    });
    expect(Number(row!.wallet_balance)).toBe(0);
    expect(row!.created_at.toISOString()).toBe(input.registeredAt);
  });

  it('refuses a second registration of the same email in any letter case, and records nothing for it', async () => {
    const first = newUser('alan@example.com');
    await registerUser(context(), deps(), first);
    const second = newUser('ALAN@Example.COM');
    expect(await refusal(registerUser(context(), deps(), second))).toBe('email_taken');
    expect((await store.readStream(userStream(second.userId).streamId)).version).toBe(0);
  });

  it('lets exactly one of many racing registrations of one email win', async () => {
    const racers = Array.from({ length: 6 }, (_, i) => newUser(i % 2 ? 'RACE@example.com' : 'race@example.com'));
    const outcomes = await Promise.allSettled(racers.map((input) => registerUser(context(), deps(), input)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect((o.reason as AppError).code).toBe('email_taken');
    const rows = await database.db.selectFrom('users').select('id').where('email_normalized', '=', 'race@example.com').execute();
    expect(rows).toHaveLength(1);
  });

  it('makes usernames unique, also when registrations race for the same one', async () => {
    const named = (email: string) => ({ ...newUser(email), firstName: 'Linus', lastName: 'Torvalds' });
    const sequential = await registerUser(context(), deps(), named('linus@example.com'));
    const again = await registerUser(context(), deps(), named('linus@example.org'));
    expect([sequential.username, again.username]).toEqual(['LinusT', 'LinusT2']);

    // All four read the taken usernames before any of them appends, so three must pick again.
    let lookups = 0;
    let release!: () => void;
    const allHaveLooked = new Promise<void>((resolve) => (release = resolve));
    const racingDeps = {
      emailClaimSecret: secret,
      async usernamesStartingWith(base: string) {
        const taken = await usernamesLike(database.db, base);
        if (++lookups === 4) release();
        await allHaveLooked;
        return taken;
      },
    };
    const racing = await Promise.all(['a', 'b', 'c', 'd'].map((d) => registerUser(context(), racingDeps, newUser(`ken@${d}.example.com`))));
    expect(lookups).toBeGreaterThanOrEqual(4 + 3);
    expect(new Set(racing.map((r) => r.username)).size).toBe(4);
  });

  it('takes over an email whose registration died between its two appends', async () => {
    const crashed = newUser('orphan@example.com', '2026-01-01T10:00:00.000Z');
    const stream = emailClaimStream(crashed.email, await secret());
    await store.append(stream.streamId, stream.streamType, [
      { type: 'EmailClaimed', data: { email: crashed.email, userId: crashed.userId, claimedAt: crashed.registeredAt }, metadata },
    ], { expected: 'no_stream' });

    const tooSoon = newUser('orphan@example.com', '2026-01-01T10:01:00.000Z');
    expect(await refusal(registerUser(context(), deps(), tooSoon))).toBe('email_taken');

    const later = newUser('orphan@example.com', new Date(Date.parse(crashed.registeredAt) + ABANDONED_CLAIM_MS).toISOString());
    await registerUser(context(), deps(), later);
    expect((await findUserByEmail(database.db, 'orphan@example.com'))?.id).toBe(later.userId);
  });

  it('records a sign-in and its time in the read model', async () => {
    const input = newUser('barbara@example.com');
    await registerUser(context(), deps(), input);
    await recordLogin(context(), { userId: input.userId, at: '2026-01-03T08:00:00.000Z' });
    expect((await findUserByEmail(database.db, input.email))?.last_login_at?.toISOString()).toBe('2026-01-03T08:00:00.000Z');
    expect(await refusal(recordLogin(context(), { userId: newUser('x@example.com').userId, at: metadata.timestamp }))).toBe('user_not_found');
  });

  it('claims a guest session once, running every claimer, and again only for the same user', async () => {
    const runs: string[] = [];
    const claimers: GuestDataClaimer[] = [
      { name: 'cards', claim: async ({ guestId, userId }) => void runs.push(`cards ${guestId} ${userId}`) },
      { name: 'broken', claim: async () => Promise.reject(new Error('boom')) },
    ];
    const guestId = '00000000-0000-4000-9000-000000000001';
    const claimContext = { store, metadata, db: database.db };

    const first = await claimGuestSession(claimContext, { guestId, userId: 'u-1', claimedAt: metadata.timestamp }, claimers);
    expect(first.claimed).toBe(true);
    expect(first.failures.map((f) => f.claimer)).toEqual(['broken']);
    expect(runs).toEqual([`cards ${guestId} u-1`]);

    const retried = await claimGuestSession(claimContext, { guestId, userId: 'u-1', claimedAt: metadata.timestamp }, claimers);
    expect(retried.claimed).toBe(true);
    const stolen = await claimGuestSession(claimContext, { guestId, userId: 'u-2', claimedAt: metadata.timestamp }, claimers);
    expect(stolen).toEqual({ claimed: false, failures: [] });
    expect(runs).toHaveLength(2);

    const events = (await store.readStream(guestSessionStream(guestId).streamId)).events;
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['GuestSessionClaimed', { guestId, userId: 'u-1', claimedAt: metadata.timestamp }],
    ]);
  });

  it('renames an account named after its email once, by a UsernameChanged event', async () => {
    const old = { ...newUser('Jane.Doe.Private@example.com'), firstName: 'Jane', lastName: 'Doe' };
    // As registrations made them before: the username from the email's local part.
    await store.append(userStream(old.userId).streamId, 'user', [{ type: 'UserRegistered', data: { ...old, username: 'jane.doe.private' }, metadata }], { expected: 'no_stream' });
    let commands = 0;
    const systemMetadata = () => ({ ...metadata, actor: { kind: 'system' as const, id: 'usernames' }, commandId: `rename-${commands++}` });

    expect(await renameEmailUsernames(store, systemMetadata, database.db)).toBeGreaterThanOrEqual(1);
    const row = await findUserByEmail(database.db, old.email);
    expect(row!.username).toMatch(/^JaneD\d*$/);
    const { events } = await store.readStream(userStream(old.userId).streamId);
    expect(events.map((e) => [e.type, (e.data as { from?: string }).from ?? null])).toEqual([['UserRegistered', null], ['UsernameChanged', 'jane.doe.private']]);

    // Started again (another API process, a restart): nothing left to rename.
    expect(await renameEmailUsernames(store, systemMetadata, database.db)).toBe(0);
    expect((await store.readStream(userStream(old.userId).streamId)).events).toHaveLength(2);
  });

  it('rebuilds the users table row for row', async () => {
    const live = await database.db.selectFrom('users').selectAll().orderBy('id').execute();
    expect(live.length).toBeGreaterThan(5);
    await rebuildProjection(database, store, usersProjection, 'inline');
    expect(await database.db.selectFrom('users').selectAll().orderBy('id').execute()).toEqual(live);
  });
});
