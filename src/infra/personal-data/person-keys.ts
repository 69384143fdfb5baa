import { randomBytes } from 'node:crypto';
import { sql, type ColumnType, type Kysely, type Transaction } from 'kysely';
import type { Tables } from '../database/schema.ts';

// The data keys of people, one per subject (`user:<id>`, `guest:<id>`), kept in `person_keys` and never in the log.
// Deleting a key is what erasing a person means (crypto-shredding): what their events sealed with it can no longer be
// read, and the row stays behind, keyless, so nothing later is sealed for them with a new key.

export interface PersonKeysTable {
  subject: string;
  /** AES-256 key, base64; null once the person was erased. */
  data_key: string | null;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  erased_at: Date | null;
}
export interface PersonKeysTables {
  person_keys: PersonKeysTable;
}

/** A subject's key, or 'erased' when the person was erased. */
export type PersonKey = Buffer | 'erased';

export interface PersonKeys {
  /** The keys of these subjects that exist (erased ones as 'erased'); a subject never keyed is absent. */
  keysOf(subjects: readonly string[], trx?: Transaction<Tables>): Promise<Map<string, PersonKey>>;
  /** The subject's key, made if it has none yet: inside the caller's transaction (an append's). */
  keyForWriting(trx: Transaction<Tables>, subject: string): Promise<PersonKey>;
  /** Deletes the subjects' keys for good; returns how many keys were deleted now (an erased one counts 0). */
  erase(subjects: readonly string[], at: Date): Promise<number>;
}

const KEY_BYTES = 32;

export function createPersonKeys(db: Kysely<Tables>): PersonKeys {
  const keyOf = (dataKey: string | null): PersonKey => (dataKey === null ? 'erased' : Buffer.from(dataKey, 'base64'));
  return {
    async keysOf(subjects, trx) {
      if (subjects.length === 0) return new Map();
      const rows = await (trx ?? db).selectFrom('person_keys').select(['subject', 'data_key']).where('subject', 'in', [...new Set(subjects)]).execute();
      return new Map(rows.map((row) => [row.subject, keyOf(row.data_key)]));
    },
    async keyForWriting(trx, subject) {
      // Two appends for one new person both insert: the second waits on the first's row and then reads it.
      await trx
        .insertInto('person_keys')
        .values({ subject, data_key: randomBytes(KEY_BYTES).toString('base64'), erased_at: null })
        .onConflict((c) => c.column('subject').doNothing())
        .execute();
      const row = await trx.selectFrom('person_keys').select('data_key').where('subject', '=', subject).executeTakeFirstOrThrow();
      return keyOf(row.data_key);
    },
    async erase(subjects, at) {
      if (subjects.length === 0) return 0;
      const unique = [...new Set(subjects)];
      const deleted = await db.transaction().execute(async (trx) => {
        const updated = await trx.updateTable('person_keys').set({ data_key: null, erased_at: at }).where('subject', 'in', unique).where('data_key', 'is not', null).executeTakeFirst();
        // A person with no key yet (nothing sealed) is marked too, so nothing is sealed for them afterwards.
        await trx
          .insertInto('person_keys')
          .values(unique.map((subject) => ({ subject, data_key: null, erased_at: at })))
          .onConflict((c) => c.column('subject').doNothing())
          .execute();
        return Number(updated.numUpdatedRows);
      });
      // The old row version, key and all, stays in the table's file until a vacuum reclaims it: reclaimed now, so
      // the key is gone from the live database, not only from what a query sees. (Backups and the WAL age out on
      // their own schedule.) Best effort: a vacuum refused (a long transaction elsewhere) leaves it to autovacuum.
      await sql`vacuum person_keys`.execute(db).catch(() => undefined);
      return deleted;
    },
  };
}
