import { achievementNotificationShownSchema } from '../../domain/achievements/index.ts';
import { rowProjection } from '../runner/row-projection.ts';
import { rowTable } from '../runner/row-store.ts';

const notificationsShown = rowTable('achievement_notifications_shown', ['user_id', 'achievement_id']);

// Inline: a notification marked shown must not pop up again on the next poll, however far the async
// achievements projection lags. GET /api/achievements reads a notification as shown when either says so.
export const achievementNotificationsProjection = rowProjection({
  name: 'achievement-notifications',
  handles: ['AchievementNotificationShown'],
  tables: [notificationsShown],
  async handle(rows, event) {
    const { userId, achievementId, shownAt } = achievementNotificationShownSchema.parse(event.data);
    await rows.insertIfAbsent(notificationsShown, { user_id: userId, achievement_id: achievementId, shown_at: shownAt });
  },
});
