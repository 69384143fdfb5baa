import type { Kysely } from 'kysely';

// Issue 32: the catalogue card an owner confirmed (CardIdentificationConfirmed), laid over the grading's own
// identification wherever the card is read. Null on every row until its owner confirms one.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('card_grades').addColumn('confirmed_identification', 'json').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('card_grades').dropColumn('confirmed_identification').execute();
}
