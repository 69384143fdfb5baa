import type { Kysely } from 'kysely';

// The users read model (SPEC.md §3) and the sessions table (DESIGN.md §6).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('username', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('password', 'varchar(255)', (c) => c.notNull())
    .addColumn('email', 'varchar(255)', (c) => c.notNull())
    .addColumn('email_normalized', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ags_card_user_id', 'text')
    .addColumn('ags_card_token', 'text')
    .addColumn('first_name', 'varchar(255)')
    .addColumn('last_name', 'varchar(255)')
    .addColumn('phone', 'varchar(50)')
    .addColumn('customer_number', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('marketing_notifications_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('wallet_balance', 'numeric(10, 2)', (c) => c.notNull().defaultTo(0))
    .addColumn('role', 'varchar(50)', (c) => c.notNull().defaultTo('Member'))
    .addColumn('last_login_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'char(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid')
    .addColumn('guest_id', 'uuid', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sessions').ifExists().execute();
  await db.schema.dropTable('users').ifExists().execute();
}
