import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRows } from '../../src/infra/database/copy-rows.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/database.ts';

// A COPY goes through executeQuery like any statement (copy-rows.ts): PostgreSQL's connections send it by the COPY
// protocol, PGlite's as the file /dev/blob. What goes in must come back as it was, whatever the characters.

const awkward = ['plain', 'tab\there', 'line\nbreak', 'carriage\rreturn', 'back\\slash', '\\N', 'quote " and \'', 'ünïcødé ✓ 🃏', '', ' '];

describe.each(await databaseKinds())('COPY on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind, { migrate: false });
    await sql`create table copied (id int primary key, label text, amount real, flag boolean not null default true, at timestamptz, doc jsonb, day date)`.execute(
      database.db,
    );
  });
  afterAll(() => database.destroy());

  it('writes every value as given: text of any characters, numbers, booleans, times, JSON, dates and nulls', async () => {
    const rows = awkward.map((label, i) => ({
      id: i + 1,
      label,
      amount: i === 0 ? null : i / 4,
      flag: i % 2 === 0,
      at: i % 3 === 0 ? new Date(Date.UTC(2026, 10, 26, 8, i)) : `2026-11-26T08:0${i}:00.000Z`,
      doc: JSON.stringify({ label, list: [i, null, 'a\tb'] }),
      day: i === 1 ? null : '2026-11-26',
    }));
    const result = await database.db.executeQuery(copyRows('copied', ['id', 'label', 'amount', 'flag', 'at', 'doc', 'day'], rows));
    expect(result.rows).toEqual([]);

    const { rows: back } = await sql<{ id: number; label: string; amount: number | null; flag: boolean; at: Date; doc: unknown; day: string | null }>`
      select id, label, amount, flag, at, doc, to_char(day, 'YYYY-MM-DD') as day from copied order by id`.execute(database.db);
    expect(back).toEqual(
      rows.map((row) => ({ ...row, at: new Date(row.at), doc: JSON.parse(row.doc) })),
    );
  });

  it('gives columns left out their defaults, and inside a transaction is undone with it', async () => {
    await database.db
      .transaction()
      .execute(async (trx) => {
        await trx.executeQuery(copyRows('copied', ['id', 'label'], [{ id: 100, label: 'kept out' }]));
        throw new Error('roll back');
      })
      .catch(() => {});
    await database.db.executeQuery(copyRows('copied', ['id', 'label'], [{ id: 101, label: 'defaults' }]));
    const { rows } = await sql<{ id: number; flag: boolean; at: Date | null }>`select id, flag, at from copied where id >= 100 order by id`.execute(database.db);
    expect(rows).toEqual([{ id: 101, flag: true, at: null }]);
  });

  it('refuses a row the table refuses (a key taken) with the database error, and the connection goes on', async () => {
    await expect(database.db.executeQuery(copyRows('copied', ['id', 'label'], [{ id: 1, label: 'again' }]))).rejects.toThrow(/duplicate key/);
    await expect(database.db.executeQuery(copyRows('copied', ['id', 'label'], [{ id: 2000, label: 'x' }, { id: 'two', label: 'y' }]))).rejects.toThrow(
      /invalid input syntax for type integer/,
    );
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from copied where id in (1, 2000)`.execute(database.db);
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('refuses a value it cannot write as text (an object) before anything is sent', () => {
    expect(() => copyRows('copied', ['id', 'doc'], [{ id: 3000, doc: { not: 'text' } }])).toThrow(/A COPY takes strings, numbers, booleans and dates/);
  });
});
