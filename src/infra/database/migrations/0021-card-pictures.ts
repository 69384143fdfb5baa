import type { Kysely } from 'kysely';

// Issue 35: the flattened card shown in place of the photo (in the collection and the portfolio, with its thumbnail),
// and a portfolio card's link to the collection card it was added from. Null on rows from before: the photo shows,
// and the two are not linked.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('card_grades')
    .addColumn('card_image_url', 'text')
    .addColumn('card_thumb_url', 'text')
    .addColumn('back_card_image_url', 'text')
    .execute();
  await db.schema
    .alterTable('portfolio_cards')
    .addColumn('graded_card_id', 'text')
    .addColumn('card_image_url', 'text')
    .addColumn('card_thumb_url', 'text')
    .addColumn('back_card_image_url', 'text')
    .execute();
  // The collection finds each card's portfolio entry by it.
  await db.schema.createIndex('portfolio_cards_graded_card_id').on('portfolio_cards').column('graded_card_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('portfolio_cards_graded_card_id').ifExists().execute();
  await db.schema.alterTable('portfolio_cards').dropColumn('graded_card_id').dropColumn('card_image_url').dropColumn('card_thumb_url').dropColumn('back_card_image_url').execute();
  await db.schema.alterTable('card_grades').dropColumn('card_image_url').dropColumn('card_thumb_url').dropColumn('back_card_image_url').execute();
}
