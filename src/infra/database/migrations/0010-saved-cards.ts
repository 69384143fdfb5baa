import { sql, type Kysely } from 'kysely';

// Grading is not saving (issue 18): a graded card joins its owner's collection with a CardSaved, and sample cards
// are saved marked as such. Rows already here were saved as they were graded (their CardGraded says so by having no
// `savedSeparately`), so they are filled in as saved, not samples: what a rebuild gives for them.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table card_grades add column saved_at timestamptz`.execute(db);
  await sql`alter table card_grades add column sample boolean not null default false`.execute(db);
  await sql`update card_grades set saved_at = created_at`.execute(db);

  // The leaderboard counts each user's saved cards that are not samples, a photo once.
  await db.schema
    .createTable('leaderboard_cards')
    .addColumn('card_id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid')
    .addColumn('front_image_hash', 'char(64)', (c) => c.notNull())
    .addColumn('counted', 'boolean', (c) => c.notNull())
    .execute();
  await sql`create index leaderboard_cards_user on leaderboard_cards (user_id) where counted`.execute(db);
  await sql`insert into leaderboard_cards (card_id, user_id, front_image_hash, counted)
    select id, user_id, front_image_hash, true from card_grades`.execute(db);

  // Achievements count saved cards that are not samples, a photo once per user.
  await sql`alter table achievement_card_facts add column counts boolean not null default true`.execute(db);
  await sql`alter table achievement_card_facts add column front_image_hash char(64)`.execute(db);
  await sql`update achievement_card_facts f set front_image_hash = g.front_image_hash from card_grades g where g.id = f.card_id`.execute(db);
  await sql`alter table achievement_counted_cards add column front_image_hash char(64)`.execute(db);
  // The same photo already counted on two cards keeps its hash on the first only, so the index below can hold.
  await sql`update achievement_counted_cards c set front_image_hash = g.front_image_hash from card_grades g where g.id = c.card_id
    and not exists (select 1 from achievement_counted_cards c2 join card_grades g2 on g2.id = c2.card_id
      where c2.user_id = c.user_id and g2.front_image_hash = g.front_image_hash and c2.card_id < c.card_id)`.execute(db);
  await sql`create unique index achievement_counted_photos on achievement_counted_cards (user_id, front_image_hash)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists achievement_counted_photos`.execute(db);
  await sql`alter table achievement_counted_cards drop column if exists front_image_hash`.execute(db);
  await sql`alter table achievement_card_facts drop column if exists front_image_hash`.execute(db);
  await sql`alter table achievement_card_facts drop column if exists counts`.execute(db);
  await db.schema.dropTable('leaderboard_cards').ifExists().execute();
  await sql`alter table card_grades drop column if exists sample`.execute(db);
  await sql`alter table card_grades drop column if exists saved_at`.execute(db);
}
