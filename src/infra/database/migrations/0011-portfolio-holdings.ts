import { sql, type Kysely } from 'kysely';

// The portfolio value chart counts each day's cards as they were that day (issue 10): every card a portfolio has
// held, removed ones too, with the days it was held and what it cost, written only by the portfolio projection.
// The cards held now are filled in from portfolio_cards. Cards removed before this migration took their price
// history with them, so they are not here: `npm run projections -- rebuild portfolio` brings them back from the log.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('portfolio_holdings')
    // The portfolio card's id (cards' ids are never reused).
    .addColumn('card_id', 'integer', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('added_at', 'timestamptz', (c) => c.notNull())
    .addColumn('removed_at', 'timestamptz')
    .addColumn('acquisition_price', 'numeric(10, 2)')
    .execute();
  // The value chart: one owner's holdings.
  await db.schema.createIndex('portfolio_holdings_owner').on('portfolio_holdings').column('owner').execute();
  await sql`insert into portfolio_holdings (card_id, owner, added_at, removed_at, acquisition_price)
    select id, owner, created_at, null, acquisition_price from portfolio_cards`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('portfolio_holdings').ifExists().execute();
}
