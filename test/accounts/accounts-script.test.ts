import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailClaimSecret } from '../../src/commands/accounts/streams.ts';
import { registerUser } from '../../src/commands/accounts/register-user.ts';
import { addAddress } from '../../src/commands/addresses/address-book.ts';
import { randomIds, systemClock } from '../../src/infra/clock/clock.ts';
import { createEventStore, type EventMetadata, type EventStore } from '../../src/infra/event-store/index.ts';
import type { PersonalDataSealer } from '../../src/infra/personal-data/sealed-fields.ts';
import { inlineProjections } from '../../src/projections/index.ts';
import { findUserByEmail, usernamesLike } from '../../src/projections/users/queries.ts';
import { runAccountsCommand } from '../../scripts/accounts.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/database.ts';

// `npm run accounts`: encrypt-log seals a log written before sealing (issue 34), once, with a dry run and a backup;
// erase takes an email or an id. The log before sealing is written by a store whose sealer keeps everything as it is.

const metadata: EventMetadata = { actor: { kind: 'system', id: 'test' }, commandId: 'c', timestamp: '2026-03-01T12:00:00.000Z' };
const plaintextSealer: PersonalDataSealer = { seal: async (_trx, events) => events.map((event) => event.data), open: async (events) => [...events] };

describe.each(await databaseKinds())('npm run accounts on %s', (kind) => {
  let database: TestDatabase;
  let store: EventStore;
  const marker = `zq-erase-marker-legacy-${randomBytes(4).toString('hex')}`;
  const email = `${marker}@example.com`;
  const userId = crypto.randomUUID();
  const deleted: string[] = [];
  const run = async (...args: string[]) => {
    const lines: string[] = [];
    const code = await runAccountsCommand(args, { database, store, imageStore: { delete: async (hash) => (deleted.push(hash), true) }, clock: systemClock, ids: randomIds, out: (line) => lines.push(line) });
    return { code, lines };
  };
  const logHolds = async (text: string) => (await sql<{ found: boolean }>`select exists (select 1 from es_events where position(${text} in data::text) > 0) as found`.execute(database.db)).rows[0]!.found;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    store = createEventStore(database, { inline: inlineProjections });
    const legacy = { store: createEventStore(database, { inline: inlineProjections, personalData: plaintextSealer }), metadata };
    await registerUser(legacy, { usernamesStartingWith: (base) => usernamesLike(database.db, base), emailClaimSecret: emailClaimSecret(database.db) }, {
      userId,
      email,
      passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g',
      firstName: `${marker}first`,
      lastName: 'Legacy',
      phone: `${marker}-phone`,
      marketingNotificationsEnabled: false,
      providerUserId: userId,
      providerToken: 'built-in',
      registeredAt: metadata.timestamp,
    });
    await addAddress(legacy, {
      userId,
      addressId: crypto.randomUUID(),
      fields: { fullName: `${marker} name`, addressLine1: `${marker} 1 Old Road`, addressLine2: null, city: 'Springfield', state: 'IL', zipCode: '62701', country: 'United States', phoneNumber: null },
      makeDefault: true,
    });
  });
  afterAll(() => database?.destroy());

  it('encrypt-log: a dry run counts and changes nothing; the run seals in place, keeps a backup, and reads back the same', async () => {
    expect(await logHolds(marker)).toBe(true);
    const before = (await store.readStream(`user-${userId}`)).events.map((event) => event.data);

    expect(await run('encrypt-log', '--dry-run')).toEqual({ code: 0, lines: ['events with personal data in plaintext: EmailClaimed 1, UserRegistered 1, AddressAdded 1', 'dry run: nothing was changed'] });
    expect(await logHolds(marker)).toBe(true);

    const sealed = await run('encrypt-log');
    expect(sealed.code).toBe(0);
    expect(sealed.lines[1]).toMatch(/^3 events sealed; the rows as they were are in es_events_plaintext_backup/);
    expect(await logHolds(marker)).toBe(false);
    expect((await store.readStream(`user-${userId}`)).events.map((event) => event.data)).toEqual(before);
    // Still append-only.
    await expect(sql`update es_events set data = '{}' where stream_id = ${`user-${userId}`}`.execute(database.db)).rejects.toThrow();

    // Once: a second run waits for the backup to be dropped, and then finds nothing to do.
    expect((await run('encrypt-log')).code).toBe(1);
    expect(await run('drop-backup')).toEqual({ code: 0, lines: ['es_events_plaintext_backup dropped'] });
    expect(await run('encrypt-log')).toEqual({ code: 0, lines: ['every personal field in the log is sealed already'] });
  });

  it('erase: by email; then nothing of the person is left in any table', async () => {
    expect(await run('erase', 'nobody@example.com')).toEqual({ code: 1, lines: ['no account nobody@example.com'] });
    const erased = await run('erase', email.toUpperCase());
    expect(erased).toEqual({ code: 0, lines: [`${userId}: erased (1 keys and 0 photos deleted, 0 sessions ended)`] });
    expect(await findUserByEmail(database.db, email)).toBeUndefined();
    const { rows: tables } = await sql<{ table_name: string }>`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(database.db);
    for (const { table_name } of tables) {
      const { rows } = await sql<{ found: boolean }>`select exists (select 1 from ${sql.table(table_name)} t where position(${marker} in lower(t::text)) > 0) as found`.execute(database.db);
      expect({ table: table_name, found: rows[0]!.found }).toEqual({ table: table_name, found: false });
    }
    // By id, an erased account is erased already: nothing more to do, and it says so.
    expect(await run('erase', userId)).toEqual({ code: 0, lines: [`${userId}: erased (0 keys and 0 photos deleted, 0 sessions ended)`] });
  });
});
