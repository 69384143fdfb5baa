import type { Kysely } from 'kysely';

// A version per collection (the global position of the last event that changed it), so GET /api/my-cards can
// answer from a cache, and a browser revalidate, without reading the whole collection each time.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('card_collections')
    .addColumn('owner', 'text', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('card_collections').ifExists().execute();
}
