import type { Kysely } from 'kysely';
import type { Achievement, AchievementProgress } from '../../contracts/cards.ts';
import { ACHIEVEMENTS, achievementById, emptyCollectorStats, metricValue } from '../../domain/achievements/index.ts';
import type { Tables } from '../../infra/database/schema.ts';

/** A user's earned achievements, oldest first, with the catalogue's name, description and level. */
export async function achievementsOf(db: Kysely<Tables>, userId: string): Promise<Achievement[]> {
  const rows = await db
    .selectFrom('user_achievements as a')
    .leftJoin('achievement_notifications_shown as n', (join) =>
      join.onRef('n.user_id', '=', 'a.user_id').onRef('n.achievement_id', '=', 'a.achievement_id'),
    )
    .select(['a.achievement_id', 'a.earned_at', 'a.notification_shown', 'n.shown_at'])
    .where('a.user_id', '=', userId)
    .orderBy('a.earned_at')
    .orderBy('a.achievement_id')
    .execute();
  return rows.flatMap((row) => {
    const definition = achievementById(row.achievement_id);
    if (!definition) return [];
    return [
      {
        achievementId: definition.achievementId,
        name: definition.name,
        description: definition.description,
        level: definition.level,
        notificationShown: row.notification_shown || row.shown_at !== null,
        earnedAt: row.earned_at.toISOString(),
      },
    ];
  });
}

/**
 * Every achievement in catalogue order, earned or locked, with how far along the user is: the numbers the async
 * projection earns them by, so progress and earning always agree (an earned one shows its target reached).
 */
export async function achievementProgressOf(db: Kysely<Tables>, userId: string): Promise<AchievementProgress[]> {
  const [earned, statsRow] = await Promise.all([
    achievementsOf(db, userId),
    db.selectFrom('achievement_stats').select('stats').where('user_id', '=', userId).executeTakeFirst(),
  ]);
  const stats = statsRow?.stats ?? emptyCollectorStats();
  return ACHIEVEMENTS.map((definition) => {
    const won = earned.find((a) => a.achievementId === definition.achievementId);
    const reached = Math.min(definition.target, metricValue(stats, definition.metric));
    return {
      achievementId: definition.achievementId,
      name: definition.name,
      description: definition.description,
      level: definition.level,
      earned: won !== undefined,
      earnedAt: won?.earnedAt ?? null,
      current: won ? definition.target : reached,
      target: definition.target,
    };
  });
}
