import type { Kysely } from 'kysely';

// Issue 32 item 5: the price history includes graded values. Each recorded price keeps the values by grade recorded
// with it (the per-grade source's figures, with their source, currency and day); null on rows recorded without them.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('price_history').addColumn('graded_values', 'json').execute();
  await db.schema.alterTable('portfolio_price_history').addColumn('graded_values', 'json').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('portfolio_price_history').dropColumn('graded_values').execute();
  await db.schema.alterTable('price_history').dropColumn('graded_values').execute();
}
