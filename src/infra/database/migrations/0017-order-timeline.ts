import type { Kysely } from 'kysely';

// Issue 33: an order moves on at the grading provider; its timeline (each status reached, with when) beside its status.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('submission_orders').addColumn('status_history', 'jsonb', (c) => c.notNull().defaultTo('[]')).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('submission_orders').dropColumn('status_history').execute();
}
