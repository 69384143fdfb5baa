import { sql, type Kysely } from 'kysely';

// Issue 33, regrading: each card's row says which engine made its latest grade and what that grade was (so a regrade
// picks the cards another engine graded, and a rerun skips the rest), and the regrade jobs write what they did with
// each card where the command that started them reads its progress and outcomes (regrade_outcomes, not a read model).
// And orders moving on at an external grading provider: how far its status feed has been read.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('card_grades')
    .addColumn('engine_vision', 'text', (c) => c.notNull().defaultTo('unknown'))
    .addColumn('engine_calibration', 'text', (c) => c.notNull().defaultTo('unknown'))
    .addColumn('latest_overall_grade', 'double precision')
    .execute();
  // Rows written before this carry the engine 'unknown' (their CardGraded may name one: `npm run projections --
  // rebuild cards` reads it) and their own grade as the latest.
  await sql`update card_grades set latest_overall_grade = overall_grade`.execute(db);
  await sql`alter table card_grades alter column latest_overall_grade set not null`.execute(db);
  await db.schema
    .createTable('regrade_outcomes')
    .addColumn('run_id', 'text', (c) => c.notNull())
    .addColumn('card_id', 'text', (c) => c.notNull())
    .addColumn('outcome', 'varchar(20)', (c) => c.notNull())
    .addColumn('old_grade', 'double precision')
    .addColumn('old_engine', 'text')
    .addColumn('new_grade', 'double precision')
    .addColumn('new_engine', 'text')
    .addColumn('message', 'text')
    .addColumn('finished_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('regrade_outcomes_pkey', ['run_id', 'card_id'])
    .execute();
  // How far the grading provider's order status feed has been read (its opaque cursor), so each update is applied once
  // whichever process reads it next.
  await db.schema
    .createTable('provider_feed_cursors')
    .addColumn('feed', 'text', (c) => c.primaryKey())
    .addColumn('cursor', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('provider_feed_cursors').ifExists().execute();
  await db.schema.dropTable('regrade_outcomes').ifExists().execute();
  await db.schema.alterTable('card_grades').dropColumn('engine_vision').dropColumn('engine_calibration').dropColumn('latest_overall_grade').execute();
}
