import type { ColumnType } from 'kysely';
import type { CollectorStats, GradedCardFacts } from '../../domain/achievements/index.ts';

// Achievements (SPEC.md §3 user_achievements) and what the async achievements projection keeps to earn them;
// achievement_notifications_shown is the inline projection's, so a notification marked shown stays shown at once.

export interface UserAchievementsTable {
  /** `<userId>:<achievementId>` */
  id: string;
  user_id: string;
  achievement_id: number;
  earned_at: ColumnType<Date, Date | string, Date | string>;
  notification_shown: ColumnType<boolean, boolean | undefined, boolean>;
}

export interface AchievementStatsTable {
  user_id: string;
  stats: ColumnType<CollectorStats, string, string>;
}

export interface AchievementCardFactsTable {
  card_id: string;
  facts: ColumnType<GradedCardFacts, string, string>;
  /** Saved and not a sample: the card counts for whoever owns it. */
  counts: ColumnType<boolean, boolean | undefined, boolean>;
  front_image_hash: string | null;
}

export interface AchievementCountedCardsTable {
  user_id: string;
  card_id: string;
  /** A photo counts once per user, whichever card it is on. */
  front_image_hash: string | null;
}

export interface AchievementNotificationsShownTable {
  user_id: string;
  achievement_id: number;
  shown_at: ColumnType<Date, Date | string, Date | string>;
}

export interface AchievementTables {
  user_achievements: UserAchievementsTable;
  achievement_stats: AchievementStatsTable;
  achievement_card_facts: AchievementCardFactsTable;
  achievement_counted_cards: AchievementCountedCardsTable;
  achievement_notifications_shown: AchievementNotificationsShownTable;
}
