import type { Kysely } from 'kysely';
import type { LeaderboardEntry } from '../../contracts/cards.ts';
import type { Tables } from '../../infra/database/schema.ts';

export const LEADERBOARD_SIZE = 10;

/** Top graders by cards in their collection; ties by username, so the order is stable. */
export async function topGraders(db: Kysely<Tables>, limit = LEADERBOARD_SIZE): Promise<LeaderboardEntry[]> {
  const rows = await db
    .selectFrom('leaderboard')
    .select(['user_id', 'username', 'card_count'])
    .where('card_count', '>', 0)
    .where('username', 'is not', null)
    .where('listed', '=', true)
    .orderBy('card_count', 'desc')
    .orderBy('username')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ id: row.user_id, username: row.username!, cardCount: row.card_count }));
}
