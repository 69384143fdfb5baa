import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFeedbackCommand } from '../../scripts/feedback.ts';
import { accountErasureDeps } from '../../src/personal-data.ts';
import { setLeaderboardOptOut } from '../../src/commands/accounts/account-settings.ts';
import { claimGuestSession } from '../../src/commands/accounts/claim-guest-session.ts';
import { eraseAccount } from '../../src/commands/accounts/erase-account.ts';
import { emailClaimSecret, emailClaimStream } from '../../src/commands/accounts/streams.ts';
import { normalizeEmail } from '../../src/domain/accounts/identity.ts';
import { registerUser, type RegisterUserInput } from '../../src/commands/accounts/register-user.ts';
import { addAddress } from '../../src/commands/addresses/address-book.ts';
import { submitFeedback } from '../../src/commands/feedback/submit-feedback.ts';
import type { AddressFields } from '../../src/contracts/addresses.ts';
import { accountsEventSchemas } from '../../src/domain/accounts/events.ts';
import { addressBookEventSchemas } from '../../src/domain/addresses/events.ts';
import { feedbackEventSchemas } from '../../src/domain/feedback/events.ts';
import { orderEventSchemas } from '../../src/domain/orders/events.ts';
import { createEventStore, START, checkpointOf, type EventMetadata, type EventStore, type RecordedEvent } from '../../src/infra/event-store/index.ts';
import { createFileImageStore, type ImageStore } from '../../src/infra/image-storage/index.ts';
import { asyncProjections, inlineProjections } from '../../src/projections/index.ts';
import { projectionStatus, rebuildProjections, startProjectionRunners, type RebuildTarget } from '../../src/projections/runner/index.ts';
import { findUserByEmail, usernamesLike } from '../../src/projections/users/queries.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/database.ts';

// Issue 34, "Done when": an erased person's email, name, phone and addresses cannot be found anywhere in the database
// (the log, the read models, every table) by a byte search for unusual markers seeded into them; every event still
// replays; a rebuild equals the live read models. Another person's markers stay findable, so the search is shown to work.

const metadata: EventMetadata = { actor: { kind: 'system', id: 'test' }, commandId: 'c', timestamp: '2026-03-01T12:00:00.000Z' };
const targets: RebuildTarget[] = [
  ...inlineProjections.map((projection) => ({ projection, kind: 'inline' as const })),
  ...asyncProjections.map((projection) => ({ projection, kind: 'async' as const })),
];
const eventSchemas: Record<string, { parse(data: unknown): unknown }> = { ...accountsEventSchemas, ...addressBookEventSchemas, ...feedbackEventSchemas, ...orderEventSchemas };

/** A person whose every personal field carries a marker no other text contains. */
function person(tag: string) {
  const marker = `zq-erase-marker-${tag}-${randomBytes(4).toString('hex')}`;
  const userId = crypto.randomUUID();
  const guestId = crypto.randomUUID();
  const registration: RegisterUserInput = {
    userId,
    email: `${marker}-mail@example.com`,
    passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g',
    firstName: `${marker}first`,
    lastName: `${marker}last`,
    phone: `${marker}-phone`,
    marketingNotificationsEnabled: false,
    providerUserId: userId,
    providerToken: 'built-in',
    registeredAt: '2026-03-01T12:00:00.000Z',
  };
  const address: AddressFields = {
    fullName: `${marker} full name`,
    addressLine1: `${marker} 1 Main Street`,
    addressLine2: `${marker} flat 2`,
    city: `${marker}ville`,
    state: 'NY',
    zipCode: '10001',
    country: 'United States',
    phoneNumber: `${marker}-address-phone`,
  };
  return { marker, userId, guestId, registration, address };
}

describe.each(await databaseKinds())('erasing an account on %s', (kind) => {
  let database: TestDatabase;
  let store: EventStore;
  let imagesDir: string;
  let images: ImageStore;
  const erased = person('gone');
  const kept = person('kept');
  const context = () => ({ store, metadata });
  let onlyTheirPhoto: string;
  let sharedPhoto: string;
  const guestOnly = person('guest-only');
  const guestOnlyEmail = `${guestOnly.marker}-Sender@Example.com`;
  let guestOnlyPhoto: string;

  async function seed(who: ReturnType<typeof person>, photo: Uint8Array, sharedBytes: Uint8Array): Promise<void> {
    await registerUser(context(), { usernamesStartingWith: (base) => usernamesLike(database.db, base), emailClaimSecret: emailClaimSecret(database.db) }, who.registration);
    await addAddress(context(), { userId: who.userId, addressId: crypto.randomUUID(), fields: who.address, makeDefault: true });
    // Feedback as a guest, then the guest session claimed at sign-in; and feedback signed in, with a photo.
    await submitFeedback({ store, imageStore: images }, {
      feedbackId: crypto.randomUUID(),
      owner: `guest:${who.guestId}`,
      fields: { name: `${who.marker} guest name`, email: `${who.marker}-guest@example.com`, category: 'bug', feedbackText: 'The grade page is slow' },
      image: sharedBytes,
      metadata,
    });
    await claimGuestSession({ ...context() } as never, { guestId: who.guestId, userId: who.userId, claimedAt: metadata.timestamp }, []);
    await submitFeedback({ store, imageStore: images }, {
      feedbackId: crypto.randomUUID(),
      owner: `user:${who.userId}`,
      fields: { name: `${who.marker} name`, email: `${who.marker}-feedback@example.com`, category: 'feature', feedbackText: 'More sets please' },
      image: photo,
      metadata,
    });
    const orderId = crypto.randomUUID();
    await store.append(`order-${orderId}`, 'order', [{
      type: 'OrderPlaced',
      metadata,
      data: {
        orderId,
        userId: who.userId,
        orderNumber: String(100000 + Math.floor(Math.random() * 899999)),
        serviceLevel: { code: 'standard', name: 'Standard' },
        card: { cardGradeId: crypto.randomUUID(), cardName: 'Pikachu', cardSet: null, cardNumber: null, cardYear: null, imageUrl: null, declaredValueCents: 0 },
        shippingAddressId: crypto.randomUUID(),
        shippingAddress: who.address,
        options: { cardCleaning: false, subgradesReport: true, heightMap: false, requireSignature: true, customShippingBox: false, slabCards: true, shippingInsurance: false },
        figures: { totalDeclaredValue: 0, serviceFee: 2900, shippingFee: 499, insuranceFee: 0, additionalFees: 725, discounts: 0, totalAmount: 4124 },
        payment: { authorizationId: 'auth_1', processor: 'test-mode', brand: 'Visa', last4: '4242', amountCents: 4124 },
        notes: `${who.marker} leave it with the neighbour`,
        placedAt: metadata.timestamp,
      },
    }], { expected: 'no_stream' });
  }

  /** Every table of the database, each row as text, searched for the marker (case-insensitive: emails are lower-cased). */
  async function tablesHolding(marker: string): Promise<string[]> {
    const { rows: tables } = await sql<{ table_name: string }>`
      select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`.execute(database.db);
    const holding: string[] = [];
    for (const { table_name } of tables) {
      const { rows } = await sql<{ found: boolean }>`select exists (select 1 from ${sql.table(table_name)} t where position(${marker.toLowerCase()} in lower(t::text)) > 0) as found`.execute(database.db);
      if (rows[0]!.found) holding.push(table_name);
    }
    return holding;
  }

  async function readModels(): Promise<Record<string, unknown[]>> {
    const tables: Record<string, unknown[]> = {};
    for (const { projection } of targets) {
      for (const table of projection.tables) tables[table] = (await sql`select * from ${sql.id(table)} order by 1, 2`.execute(database.db)).rows;
    }
    return tables;
  }

  async function catchUp(): Promise<void> {
    const stop = await startProjectionRunners(database, store, asyncProjections, { pollIntervalMs: 20 });
    try {
      // A loop of its own, not expect.poll: the first catch-up runs in beforeAll.
      for (const deadline = Date.now() + 15_000; ; await new Promise((resolve) => setTimeout(resolve, 20))) {
        const lags = (await projectionStatus(database.db, { inline: [], async: asyncProjections })).map((s) => s.lag);
        if (lags.every((lag) => lag === 0)) break;
        if (Date.now() > deadline) throw new Error(`async projections still behind: ${lags.join(', ')}`);
      }
    } finally {
      await stop();
    }
  }

  async function wholeLog(): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    for (let page = await store.readAll(START, 500); page.length > 0; page = await store.readAll(checkpointOf(page.at(-1)!), 500)) events.push(...page);
    return events;
  }

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    store = createEventStore(database, { inline: inlineProjections });
    imagesDir = await mkdtemp(path.join(tmpdir(), 'erasure-images-'));
    images = createFileImageStore(imagesDir);
    const png = (seed: number) => {
      const bytes = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000200a0e8b27b0000000049454e44ae426082', 'hex');
      return Buffer.concat([bytes, Buffer.from([seed])]);
    };
    const shared = png(0);
    onlyTheirPhoto = (await images.put(png(1))).hash;
    sharedPhoto = (await images.put(shared)).hash;
    await seed(erased, png(1), shared);
    await seed(kept, png(2), shared);
    // A guest who never signs in sends feedback twice (once with a photo only they sent, once with the shared one).
    guestOnlyPhoto = (await images.put(png(3))).hash;
    for (const image of [png(3), shared]) {
      await submitFeedback({ store, imageStore: images }, {
        feedbackId: crypto.randomUUID(),
        owner: `guest:${guestOnly.guestId}`,
        fields: { name: `${guestOnly.marker} only a guest`, email: guestOnlyEmail, category: 'bug', feedbackText: 'The upload button is hidden' },
        image,
        metadata,
      });
    }
    // The other person leaves the leaderboard: the rebuild below keeps them out too.
    await setLeaderboardOptOut(context(), { userId: kept.userId, optedOut: true, at: metadata.timestamp });
    await catchUp();
  });
  afterAll(async () => {
    await database?.destroy();
    await rm(imagesDir, { recursive: true, force: true });
  });

  it('keeps personal data out of the log from the start: sealed, and read back whole', async () => {
    const { rows } = await sql<{ found: boolean }>`select exists (select 1 from es_events where position(${erased.marker} in data::text) > 0) as found`.execute(database.db);
    expect(rows[0]!.found).toBe(false);
    // The read models show it as it was typed.
    expect(await tablesHolding(erased.marker)).toEqual(['feedback', 'shipping_addresses', 'submission_orders', 'users', 'leaderboard'].sort());
    const row = await findUserByEmail(database.db, erased.registration.email);
    expect(row).toMatchObject({ first_name: erased.registration.firstName, phone: erased.registration.phone });
  });

  it('erases: no trace of the person anywhere in the database, the other person untouched', async () => {
    const erasure = await eraseAccount(context(), accountErasureDeps(database, images), { userId: erased.userId, by: 'self', at: '2026-03-02T12:00:00.000Z' });
    expect(erasure).toEqual({ userId: erased.userId, keysDeleted: 2, photosDeleted: 1 });
    await catchUp();
    expect(await tablesHolding(erased.marker)).toEqual([]);
    expect(await tablesHolding(kept.marker)).toEqual(['feedback', 'leaderboard', 'shipping_addresses', 'submission_orders', 'users']);
    // Nor a hash of the email that a list of addresses would find: the claim stream's id is keyed (migration 0022).
    const emailHash = createHash('sha256').update(normalizeEmail(erased.registration.email)).digest('hex');
    expect(await tablesHolding(emailHash)).toEqual([]);
    const claim = await store.readStream(emailClaimStream(erased.registration.email, await emailClaimSecret(database.db)()).streamId);
    expect(claim.events.map((e) => e.type)).toEqual(['EmailClaimed', 'EmailReleased']);
    // Left the leaderboard: not listed.
    expect(await database.db.selectFrom('leaderboard').select('listed').where('user_id', '=', kept.userId).executeTakeFirst()).toEqual({ listed: false });
    expect(await findUserByEmail(database.db, erased.registration.email)).toBeUndefined();
    // Orders stay, for the audit trail, without the person.
    const orders = await database.db.selectFrom('submission_orders').select(['user_id', 'shipping_address', 'notes', 'total_amount']).where('user_id', '=', erased.userId).execute();
    expect(orders).toEqual([{ user_id: erased.userId, shipping_address: expect.objectContaining({ fullName: 'Deleted user', addressLine1: '', city: '', phoneNumber: null }), notes: null, total_amount: '41.24' }]);
    // Only the photo nobody else had is gone.
    expect(await images.has(onlyTheirPhoto)).toBe(false);
    expect(await images.has(sharedPhoto)).toBe(true);
  });

  it("erases a guest who never signed in, by their feedback's email: no trace of them, an account's feedback pointed to its own erasure", async () => {
    const lines: string[] = [];
    const operator = { database, store, imageStore: images, clock: { now: () => new Date('2026-03-02T13:00:00.000Z') }, ids: { uuid: () => crypto.randomUUID() }, out: (line: string) => lines.push(line) };
    expect(await tablesHolding(guestOnly.marker)).toEqual(['feedback']);
    // Any case, as typed in the form or not.
    expect(await runFeedbackCommand(['erase', guestOnlyEmail.toUpperCase()], operator)).toBe(0);
    expect(lines).toEqual([`guest ${guestOnly.guestId} (2 feedback): erased (1 key, 1 photos deleted)`]);
    expect(await tablesHolding(guestOnly.marker)).toEqual([]);
    const rows = await database.db.selectFrom('feedback').select(['name', 'email', 'feedback_text']).where('owner', '=', `guest:${guestOnly.guestId}`).execute();
    expect(rows).toEqual([
      { name: null, email: null, feedback_text: 'The upload button is hidden' },
      { name: null, email: null, feedback_text: 'The upload button is hidden' },
    ]);
    expect(await images.has(guestOnlyPhoto)).toBe(false);
    expect(await images.has(sharedPhoto)).toBe(true);
    // Again: nothing left from that address.
    lines.length = 0;
    expect(await runFeedbackCommand(['erase', guestOnlyEmail], operator)).toBe(1);
    expect(lines).toEqual([`no feedback from ${guestOnlyEmail}`]);
    // The other person's feedback was sent signed in: erasing it is erasing the account, and nothing changes here.
    lines.length = 0;
    expect(await runFeedbackCommand(['erase', `${kept.marker}-feedback@example.com`], operator)).toBe(1);
    expect(lines).toEqual([`account ${kept.userId} (1 feedback): erase it with npm run accounts -- erase ${kept.userId}`]);
    expect(await tablesHolding(kept.marker)).toContain('feedback');
  });

  it('retries an append of personal data idempotently: the sealed bytes differ, the data read back is the same', async () => {
    const event = { id: crypto.randomUUID(), type: 'UsernameChanged', data: { userId: kept.userId, from: 'x', to: `${kept.marker}-renamed`, at: metadata.timestamp }, metadata };
    const first = await store.append(`retry-${kept.userId}`, 'retry-test', [event], { expected: 'no_stream' });
    const again = await store.append(`retry-${kept.userId}`, 'retry-test', [event], { expected: 'no_stream' });
    expect(again.version).toBe(first.version);
    expect(again.events.map((e) => e.data)).toEqual([event.data]);
    await expect(store.append(`retry-${kept.userId}`, 'retry-test', [{ ...event, data: { ...event.data, to: 'other' } }], { expected: 'no_stream' })).rejects.toThrow(/already appended with other content/);
    // The leaderboard (async) names the renamed too: caught up, for the rebuild below.
    await catchUp();
  });

  it('still replays every event, each valid under its schema', async () => {
    const events = await wholeLog();
    expect(events.length).toBeGreaterThan(10);
    for (const event of events) {
      const schema = eventSchemas[event.type];
      if (schema) expect(() => schema.parse(event.data), event.type).not.toThrow();
    }
    const registration = events.find((e) => e.type === 'UserRegistered' && (e.data as { userId: string }).userId === erased.userId)!;
    expect(registration.data).toMatchObject({ username: 'Deleted user', email: 'Deleted user', firstName: null, lastName: null, phone: null });
  });

  it('rebuilds every read model equal to the live one', async () => {
    const live = await readModels();
    // Damage the live rows: the rebuild must come from the log.
    await sql`delete from users`.execute(database.db);
    await sql`update submission_orders set notes = 'wrong'`.execute(database.db);
    // Replays the events the read models handle (the email claims and guest sessions have none).
    expect((await rebuildProjections(database, store, targets, { batchSize: 7 })).events).toBeGreaterThan(10);
    const rebuilt = await readModels();
    for (const table of Object.keys(live)) expect({ table, rows: rebuilt[table] }).toEqual({ table, rows: live[table] });
    expect(await tablesHolding(erased.marker)).toEqual([]);
  });

  it('frees the email for a new account, and erasing again changes nothing', async () => {
    const again = await eraseAccount(context(), accountErasureDeps(database, images), { userId: erased.userId, by: 'operator', at: '2026-03-03T12:00:00.000Z' });
    expect(again).toEqual({ userId: erased.userId, keysDeleted: 0, photosDeleted: 0 });
    const newcomer = { ...erased.registration, userId: crypto.randomUUID(), registeredAt: '2026-03-04T12:00:00.000Z' };
    await registerUser(context(), { usernamesStartingWith: (base) => usernamesLike(database.db, base), emailClaimSecret: emailClaimSecret(database.db) }, newcomer);
    expect((await findUserByEmail(database.db, erased.registration.email))?.id).toBe(newcomer.userId);
  });
});
