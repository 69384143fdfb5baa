import { sql, type Kysely } from 'kysely';

// Each person's data key, outside the append-only log (DESIGN.md §6, issue 34): the personal fields of their events
// are sealed with it, and erasing them deletes it. A row whose key is null is a person erased: nothing written for
// them later is sealed with a new key, it is written as erased.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('person_keys')
    .addColumn('subject', 'text', (c) => c.primaryKey())
    .addColumn('data_key', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('erased_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('person_keys').ifExists().execute();
}
