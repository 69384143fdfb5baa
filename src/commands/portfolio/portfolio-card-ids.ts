import { sql, type Kysely } from 'kysely';
import type { Tables } from '../../infra/database/schema.ts';

// SPEC.md §3 gives portfolio cards integer ids (the detail page parses them). They are drawn from a sequence
// (migration 0004) once, by the command, and travel in the events; guessing one gets nobody anything, because every
// read and write checks the owner.
export async function nextPortfolioCardId(db: Kysely<Tables>): Promise<number> {
  const { rows } = await sql<{ id: string | number }>`select nextval('portfolio_card_ids') as id`.execute(db);
  return Number(rows[0]!.id);
}

/** `count` ids at once (a bulk import's rows), in one round trip. */
export async function nextPortfolioCardIds(db: Kysely<Tables>, count: number): Promise<number[]> {
  if (count === 0) return [];
  const { rows } = await sql<{ id: string | number }>`select nextval('portfolio_card_ids') as id from generate_series(1, ${count})`.execute(db);
  return rows.map((r) => Number(r.id));
}
