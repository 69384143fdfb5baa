import type { Kysely } from 'kysely';

// A version per portfolio (the global position of the last event that changed it), so GET /api/portfolio answers
// from a cached snapshot, and a browser revalidates, without reading thousands of cards each time.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('portfolio_versions')
    .addColumn('owner', 'text', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('portfolio_versions').ifExists().execute();
}
