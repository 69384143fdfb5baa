// The leaderboard read model: cards in each signed-in user's collection. Written only by the leaderboard projection.

export interface LeaderboardTable {
  user_id: string;
  /** From UserRegistered; null until the projection has seen it. */
  username: string | null;
  card_count: number;
}

export interface LeaderboardTables {
  leaderboard: LeaderboardTable;
}
