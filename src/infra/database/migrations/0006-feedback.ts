import type { Kysely } from 'kysely';

// The feedback read model (SPEC.md §3 feedback), written by the feedback projection.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('feedback')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid')
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('name', 'varchar(255)')
    .addColumn('email', 'varchar(255)')
    .addColumn('feedback_text', 'text', (c) => c.notNull())
    .addColumn('image_url', 'text')
    .addColumn('category', 'varchar(50)', (c) => c.notNull().defaultTo('general'))
    .addColumn('status', 'varchar(50)', (c) => c.notNull().defaultTo('new'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // Operators list by status, newest first.
  await db.schema.createIndex('feedback_status_created_at').on('feedback').columns(['status', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('feedback').ifExists().execute();
}
