import type { ColumnType } from 'kysely';

// The leaderboard read model: cards in each signed-in user's collection. Written only by the leaderboard projection.

export interface LeaderboardTable {
  user_id: string;
  /** From UserRegistered; null until the projection has seen it. */
  username: string | null;
  card_count: number;
  /** False once the user left the public leaderboard (Settings). */
  listed: ColumnType<boolean, boolean | undefined, boolean>;
}

/** Every card a user may come to be ranked for: counted once saved and not a sample; a photo counts once. */
export interface LeaderboardCardsTable {
  card_id: string;
  user_id: string | null;
  front_image_hash: string;
  counted: boolean;
}

export interface LeaderboardTables {
  leaderboard: LeaderboardTable;
  leaderboard_cards: LeaderboardCardsTable;
}
