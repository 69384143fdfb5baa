import type { Kysely } from 'kysely';

// Issue 31: a card graded with a tilt shot has a picture of the reflected light, with what it showed boxed. Null on
// rows without one.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('card_grades').addColumn('reflected_light_hash', 'char(64)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('card_grades').dropColumn('reflected_light_hash').execute();
}
