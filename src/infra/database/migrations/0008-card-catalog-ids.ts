import type { Kysely } from 'kysely';

// The catalogue id of each graded card the catalogue matched (card_grades.catalog_id), so the daily price refresh
// finds the cards it can price without reading every card's whole result. Filled by the cards projection; a
// rebuild fills it for cards graded before.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('card_grades').addColumn('catalog_id', 'text').execute();
  await db.schema.createIndex('card_grades_catalog_id').on('card_grades').column('catalog_id').where('catalog_id', 'is not', null).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('card_grades_catalog_id').ifExists().execute();
  await db.schema.alterTable('card_grades').dropColumn('catalog_id').execute();
}
