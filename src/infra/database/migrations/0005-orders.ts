import { sql, type Kysely } from 'kysely';

// The address book and the orders (SPEC.md §3 shipping_addresses, submission_orders, submission_cards), written
// only by their projections. Ids are natural keys (the address's and the order's own ids), so a rebuild gives the
// same rows. Money is numeric(10,2), as SPEC.md says.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('shipping_addresses')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('full_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('address_line1', 'varchar(255)', (c) => c.notNull())
    .addColumn('address_line2', 'varchar(255)')
    .addColumn('city', 'varchar(100)', (c) => c.notNull())
    .addColumn('state', 'varchar(50)', (c) => c.notNull())
    .addColumn('zip_code', 'varchar(20)', (c) => c.notNull())
    .addColumn('country', 'varchar(50)', (c) => c.notNull().defaultTo('United States'))
    .addColumn('phone_number', 'varchar(50)')
    .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('ags_address_id', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('shipping_addresses_user_id').on('shipping_addresses').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('submission_orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('ags_order_id', 'text')
    .addColumn('order_number', 'char(6)', (c) => c.notNull().unique())
    .addColumn('service_level', 'varchar(50)', (c) => c.notNull())
    .addColumn('service_level_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('shipping_address_id', 'uuid')
    .addColumn('shipping_address', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'varchar(30)', (c) => c.notNull().defaultTo('draft'))
    .addColumn('card_cleaning', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('subgrades_report', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('height_map', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('require_signature', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('custom_shipping_box', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('slab_cards', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('total_declared_value', 'numeric(10, 2)', (c) => c.notNull().defaultTo(0))
    .addColumn('service_fee', 'numeric(10, 2)', (c) => c.notNull().defaultTo(0))
    .addColumn('shipping_fee', 'numeric(10, 2)', (c) => c.notNull().defaultTo(0))
    .addColumn('insurance_fee', 'numeric(10, 2)', (c) => c.notNull().defaultTo(0))
    .addColumn('additional_fees', 'numeric(10, 2)', (c) => c.notNull().defaultTo(0))
    .addColumn('discounts', 'numeric(10, 2)', (c) => c.notNull().defaultTo(0))
    .addColumn('total_amount', 'numeric(10, 2)', (c) => c.notNull().defaultTo(0))
    .addColumn('paid_amount', 'numeric(10, 2)', (c) => c.notNull().defaultTo(0))
    .addColumn('payment_brand', 'varchar(30)', (c) => c.notNull())
    .addColumn('payment_last4', 'char(4)', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('completed_at', 'timestamptz')
    .addColumn('tracking_number', 'varchar(100)')
    .addColumn('shipping_carrier', 'varchar(50)')
    .addColumn('notes', 'text')
    .execute();
  await db.schema.createIndex('submission_orders_user_id').on('submission_orders').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('submission_cards')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('submission_id', 'text', (c) => c.notNull())
    .addColumn('card_grade_id', 'text')
    .addColumn('quantity', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('card_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('card_set', 'varchar(255)')
    .addColumn('card_number', 'varchar(50)')
    .addColumn('card_year', 'varchar(10)')
    .addColumn('image_url', 'text')
    .addColumn('declared_value', 'numeric(10, 2)', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'varchar(30)')
    .addColumn('ags_card_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('submission_cards_submission_id').on('submission_cards').column('submission_id').execute();
  // Keeps the default rule visible in the schema too: at most one default address per user.
  await sql`create unique index shipping_addresses_one_default on shipping_addresses (user_id) where is_default`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('submission_cards').ifExists().execute();
  await db.schema.dropTable('submission_orders').ifExists().execute();
  await db.schema.dropTable('shipping_addresses').ifExists().execute();
}
