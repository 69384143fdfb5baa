import { achievementNotificationShownSchema } from '../../domain/achievements/index.ts';
import type { InlineProjection } from '../../infra/event-store/types.ts';

// Inline: a notification marked shown must not pop up again on the next poll, however far the async
// achievements projection lags. GET /api/achievements reads a notification as shown when either says so.
export const achievementNotificationsProjection: InlineProjection = {
  name: 'achievement-notifications',
  handles: ['AchievementNotificationShown'],
  tables: ['achievement_notifications_shown'],
  async apply(trx, events) {
    for (const event of events) {
      const { userId, achievementId, shownAt } = achievementNotificationShownSchema.parse(event.data);
      await trx
        .insertInto('achievement_notifications_shown')
        .values({ user_id: userId, achievement_id: achievementId, shown_at: shownAt })
        .onConflict((c) => c.columns(['user_id', 'achievement_id']).doNothing())
        .execute();
    }
  },
};
