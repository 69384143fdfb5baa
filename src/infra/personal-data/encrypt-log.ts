import { sql, type Kysely } from 'kysely';
import { mapPersonalFields, personalDataRules, subjectOf } from '../../domain/personal-data.ts';
import type { Tables } from '../database/schema.ts';
import { createPersonKeys } from './person-keys.ts';
import { isSealed, openText, sealText } from './sealed-fields.ts';

// The one-off rewrite of the log written before personal fields were sealed (issue 34): each such event's personal
// fields sealed in place with its person's key (or written as erased, for a person already erased), its shape
// unchanged. Until it runs, those events read as they are (the plaintext shape is read as it is), and an erased
// person's fields read as erased, but the bytes are still in the log: erasure is only complete after it.
//
// One transaction, under an advisory lock (a second run is refused) and a table lock that holds appends back for its
// length; the rows it changes are first copied to BACKUP_TABLE, which the operator drops once satisfied (the copy
// holds the plaintext). The append-only trigger is set aside inside the transaction only.

export const BACKUP_TABLE = 'es_events_plaintext_backup';
/** pg_try_advisory_xact_lock's key: "encrypt-log", fixed. */
const LOCK_KEY = 7_013_034;

export interface EncryptLogResult {
  /** Events with a personal field still in plaintext, by type. */
  byType: Record<string, number>;
  rewritten: number;
  dryRun: boolean;
}

export class EncryptLogRefused extends Error {}

export async function encryptLog(db: Kysely<Tables>, options: { dryRun: boolean; batchSize?: number }): Promise<EncryptLogResult> {
  const types = Object.keys(personalDataRules);
  return db.transaction().execute(async (trx) => {
    const { rows: locked } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${LOCK_KEY}) as locked`.execute(trx);
    if (!locked[0]?.locked) throw new EncryptLogRefused('Another encrypt-log is running.');
    if (!options.dryRun) {
      const { rows } = await sql<{ name: string | null }>`select to_regclass(${BACKUP_TABLE})::text as name`.execute(trx);
      if (rows[0]?.name) throw new EncryptLogRefused(`${BACKUP_TABLE} is there from an earlier run: check it, then drop it (npm run accounts -- drop-backup) and run again.`);
      await sql`lock table es_events in exclusive mode`.execute(trx);
    }
    const keys = createPersonKeys(db);
    const result: EncryptLogResult = { byType: {}, rewritten: 0, dryRun: options.dryRun };
    const batchSize = options.batchSize ?? 500;
    let after = 0;
    for (;;) {
      const { rows } = await sql<{ global_position: string | number; event_type: string; data: unknown }>`
        select global_position, event_type, data from es_events
        where event_type in (${sql.join(types)}) and global_position > ${after}
        order by global_position limit ${batchSize}`.execute(trx);
      if (rows.length === 0) break;
      after = Number(rows.at(-1)!.global_position);
      for (const row of rows) {
        const data = (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as Record<string, unknown>;
        const subject = subjectOf(row.event_type, data);
        if (subject === null) continue;
        const key = options.dryRun ? (await keys.keysOf([subject], trx)).get(subject) : await keys.keyForWriting(trx, subject);
        let plaintext = false;
        const sealed = mapPersonalFields(row.event_type, data, (value, erased) => {
          // Sealed already: it opens with the person's key (a typed value that only looks sealed does not).
          if (key instanceof Buffer && isSealed(value) && openText(key, subject, value) !== undefined) return value;
          plaintext = true;
          if (key === 'erased') return erased;
          return key ? sealText(key, subject, value) : value;
        });
        if (!plaintext) continue;
        result.byType[row.event_type] = (result.byType[row.event_type] ?? 0) + 1;
        if (options.dryRun) continue;
        if (result.rewritten === 0) {
          await sql`create table ${sql.table(BACKUP_TABLE)} as select * from es_events with no data`.execute(trx);
          await sql`alter table es_events disable trigger es_events_append_only`.execute(trx);
        }
        await sql`insert into ${sql.table(BACKUP_TABLE)} select * from es_events where global_position = ${row.global_position}`.execute(trx);
        await sql`update es_events set data = ${JSON.stringify(sealed)}::jsonb where global_position = ${row.global_position}`.execute(trx);
        result.rewritten++;
      }
    }
    if (result.rewritten > 0) await sql`alter table es_events enable trigger es_events_append_only`.execute(trx);
    return result;
  });
}

/** Drops the backup an earlier run left; says whether there was one. */
export async function dropEncryptLogBackup(db: Kysely<Tables>): Promise<boolean> {
  const { rows } = await sql<{ name: string | null }>`select to_regclass(${BACKUP_TABLE})::text as name`.execute(db);
  if (!rows[0]?.name) return false;
  await sql`drop table ${sql.table(BACKUP_TABLE)}`.execute(db);
  return true;
}
