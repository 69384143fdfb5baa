import { sql, type Kysely } from 'kysely';

// Bulk imports (SPEC.md §3 imports and import_cards), written only by the imports projection. No foreign key from
// import_cards to imports: a rebuild swaps both tables' rows in, and the projection removes an import's rows with it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('imports')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    // user:<id>; user_id is SPEC.md's userId.
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('file_size', 'integer', (c) => c.notNull())
    .addColumn('total_cards', 'integer', (c) => c.notNull())
    .addColumn('processed_cards', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('successful_cards', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed_cards', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('duplicate_cards', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('current_stage', 'varchar(20)', (c) => c.notNull().defaultTo('preparing'))
    .addColumn('current_card', 'text')
    .addColumn('last_processed_row', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('estimated_time_remaining', 'integer')
    .addColumn('average_time_per_card_ms', 'integer')
    .addColumn('error_message', 'text')
    // Which pass over the failed rows is running (0: the first pass).
    .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('started_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // GET /api/imports: one owner's imports, newest first; start-up finds the running ones.
  await sql`create index imports_owner_created on imports (owner, created_at desc)`.execute(db);
  await sql`create index imports_processing on imports (status) where status = 'processing'`.execute(db);

  await db.schema
    .createTable('import_cards')
    // <importId>:<row>
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('import_id', 'uuid', (c) => c.notNull())
    .addColumn('card_id', 'text')
    .addColumn('portfolio_card_id', 'integer', (c) => c.notNull())
    .addColumn('front_image_url', 'text', (c) => c.notNull())
    .addColumn('back_image_url', 'text')
    .addColumn('item_id', 'text')
    .addColumn('row_number', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('error_message', 'text')
    .addColumn('processing_time', 'integer')
    .addColumn('problem', 'text')
    .addColumn('duplicate_of', 'integer')
    .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index import_cards_import_row on import_cards (import_id, row_number)`.execute(db);
  // A deleted card's rows lose their card id (SPEC.md §3: set to null when the card is deleted).
  await sql`create index import_cards_card on import_cards (card_id) where card_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('import_cards').ifExists().execute();
  await db.schema.dropTable('imports').ifExists().execute();
}
