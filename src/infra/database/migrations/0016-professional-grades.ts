import type { Kysely } from 'kysely';

// Issue 33: the latest professional grade reported for each card, written by the professional grades projection.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('professional_grades')
    .addColumn('card_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('report_id', 'text', (c) => c.notNull())
    .addColumn('company', 'varchar(10)', (c) => c.notNull())
    .addColumn('grade', 'double precision', (c) => c.notNull())
    .addColumn('cert', 'varchar(20)', (c) => c.notNull())
    .addColumn('verified', 'boolean', (c) => c.notNull())
    .addColumn('source', 'varchar(10)', (c) => c.notNull())
    .addColumn('compared', 'double precision', (c) => c.notNull())
    .addColumn('compared_from', 'varchar(20)', (c) => c.notNull())
    .addColumn('psa_estimate', 'double precision')
    .addColumn('overall_grade', 'double precision', (c) => c.notNull())
    .addColumn('centering', 'double precision')
    .addColumn('corners', 'double precision', (c) => c.notNull())
    .addColumn('edges', 'double precision', (c) => c.notNull())
    .addColumn('surface', 'double precision', (c) => c.notNull())
    .addColumn('engine_vision', 'text', (c) => c.notNull())
    .addColumn('engine_calibration', 'text', (c) => c.notNull())
    .addColumn('report_count', 'integer', (c) => c.notNull())
    .addColumn('reported_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // "How did my estimates do": one account's reports.
  await db.schema.createIndex('professional_grades_user_id').on('professional_grades').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('professional_grades').ifExists().execute();
}
