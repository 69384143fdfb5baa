import { sql, type Kysely } from 'kysely';

// A graded card's row keeps the engine's whole result (about 3 KB) only to hand it back whole: nothing queries into
// it. As json rather than jsonb PostgreSQL keeps the text as written instead of building a binary tree of it, about
// three times less work per row written (a rebuild writes one per graded card: issue 14) and none to read it back.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table card_grades alter column result type json using result::json`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table card_grades alter column result type jsonb using result::jsonb`.execute(db);
}
