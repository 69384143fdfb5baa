import { sql, type Kysely } from 'kysely';

// The portfolio (SPEC.md §3 Portfolio card and Portfolio price history), written only by the portfolio projection,
// and the sequence portfolio card ids are drawn from. The sequence belongs to no table: a card's id is decided once,
// by the command, and carried in its events, so a rebuild (which copies tables `like … including all`) gives every
// card the id it had.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create sequence portfolio_card_ids`.execute(db);

  await db.schema
    .createTable('portfolio_cards')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    // user:<id>; user_id is SPEC.md's userId.
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('card_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('card_set', 'varchar(255)')
    .addColumn('card_number', 'varchar(50)')
    .addColumn('card_year', 'varchar(10)')
    .addColumn('is_graded', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('grading_company', 'varchar(50)')
    .addColumn('official_grade', 'real')
    .addColumn('estimated_grade', 'real')
    .addColumn('current_price', 'numeric(10, 2)')
    .addColumn('price_source', 'varchar(100)')
    .addColumn('image_url', 'text')
    .addColumn('back_image_url', 'text')
    .addColumn('condition', 'varchar(100)')
    .addColumn('rarity', 'varchar(100)')
    .addColumn('category', 'varchar(50)', (c) => c.notNull().defaultTo('Trading Card'))
    .addColumn('notes', 'text')
    .addColumn('acquisition_price', 'numeric(10, 2)')
    .addColumn('acquisition_date', 'date')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // GET /api/portfolio: one owner's cards, newest first.
  await sql`create index portfolio_cards_owner_created on portfolio_cards (owner, created_at desc, id desc)`.execute(db);

  await db.schema
    .createTable('portfolio_price_history')
    // The PortfolioCardPriced event's id.
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('portfolio_card_id', 'integer', (c) => c.notNull())
    .addColumn('price_date', 'date', (c) => c.notNull())
    .addColumn('price', 'numeric(10, 2)', (c) => c.notNull())
    .addColumn('source', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('portfolio_price_history_card').on('portfolio_price_history').columns(['portfolio_card_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('portfolio_price_history').ifExists().execute();
  await db.schema.dropTable('portfolio_cards').ifExists().execute();
  await sql`drop sequence if exists portfolio_card_ids`.execute(db);
}
