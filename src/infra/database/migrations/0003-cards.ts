import { sql, type Kysely } from 'kysely';

// Graded cards: the card_grades and price_history read models (SPEC.md §3), the leaderboard, achievements,
// and the server secret card ids are signed with. Read-model rows have natural keys (card id, event id,
// user id), never serials, so a rebuild gives the same rows.

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per named secret, made on first use (insert … on conflict do nothing), so every API process shares it.
  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('card_grades')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    // user:<id> or guest:<id>; user_id is SPEC.md's userId, null while a guest owns the card.
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('user_id', 'uuid')
    .addColumn('card_name', 'text', (c) => c.notNull())
    .addColumn('card_set', 'text')
    .addColumn('card_number', 'text')
    .addColumn('card_description', 'text')
    .addColumn('set_description', 'text')
    .addColumn('card_facts', 'text')
    .addColumn('card_type', 'varchar(50)', (c) => c.notNull())
    .addColumn('image_url', 'text')
    .addColumn('back_image_url', 'text')
    .addColumn('grades', 'jsonb', (c) => c.notNull())
    .addColumn('overall_grade', 'real', (c) => c.notNull())
    .addColumn('condition_analysis', 'text')
    .addColumn('estimated_value', 'text')
    .addColumn('psa10_value', 'text')
    .addColumn('rarity', 'text')
    .addColumn('comc_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    // Beside SPEC.md's columns, so GET /api/card/{id} answers from this row alone.
    .addColumn('front_image_hash', 'char(64)', (c) => c.notNull())
    .addColumn('back_image_hash', 'char(64)')
    .addColumn('annotated_front_hash', 'char(64)')
    .addColumn('annotated_back_hash', 'char(64)')
    .addColumn('result', 'jsonb', (c) => c.notNull())
    .execute();
  // The collection: one owner's cards, newest first.
  await sql`create index card_grades_owner_created on card_grades (owner, created_at desc, id desc)`.execute(db);

  await db.schema
    .createTable('price_history')
    // The CardPriceRecorded event's id.
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('card_grade_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('price_date', 'date', (c) => c.notNull())
    .addColumn('price_value', 'real', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('grade', 'real', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('price_history_card').on('price_history').columns(['card_grade_id', 'price_date']).execute();

  // Async: cards per signed-in user, with the username from UserRegistered so the projection needs no other table.
  await db.schema
    .createTable('leaderboard')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey())
    .addColumn('username', 'varchar(255)')
    .addColumn('card_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`create index leaderboard_rank on leaderboard (card_count desc, username)`.execute(db);

  // Async: achievements earned (SPEC.md §3 user_achievements), and what the projection keeps to earn them.
  await db.schema
    .createTable('user_achievements')
    // `<userId>:<achievementId>`
    .addColumn('id', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('achievement_id', 'integer', (c) => c.notNull())
    .addColumn('earned_at', 'timestamptz', (c) => c.notNull())
    .addColumn('notification_shown', 'boolean', (c) => c.notNull().defaultTo(false))
    .addUniqueConstraint('user_achievements_user_achievement', ['user_id', 'achievement_id'])
    .execute();
  await db.schema
    .createTable('achievement_stats')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey())
    .addColumn('stats', 'jsonb', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('achievement_card_facts')
    .addColumn('card_id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('facts', 'jsonb', (c) => c.notNull())
    .execute();
  // A card counts once per user, however often it is graded again after a delete or claimed.
  await db.schema
    .createTable('achievement_counted_cards')
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('card_id', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('achievement_counted_cards_pk', ['user_id', 'card_id'])
    .execute();

  // Inline: a notification marked shown is seen as shown by the very next read, whatever the async lag.
  await db.schema
    .createTable('achievement_notifications_shown')
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('achievement_id', 'integer', (c) => c.notNull())
    .addColumn('shown_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('achievement_notifications_shown_pk', ['user_id', 'achievement_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'achievement_notifications_shown',
    'achievement_counted_cards',
    'achievement_card_facts',
    'achievement_stats',
    'user_achievements',
    'leaderboard',
    'price_history',
    'card_grades',
    'server_secrets',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
