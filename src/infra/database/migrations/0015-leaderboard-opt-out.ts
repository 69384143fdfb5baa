import { sql, type Kysely } from 'kysely';

// A user may leave the public leaderboard (Settings, issue 34): the users row says so for Settings, the leaderboard
// row for the list.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column leaderboard_opt_out boolean not null default false`.execute(db);
  await sql`alter table leaderboard add column listed boolean not null default true`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table leaderboard drop column listed`.execute(db);
  await sql`alter table users drop column leaderboard_opt_out`.execute(db);
}
