import type { Kysely } from 'kysely';
import { achievementNotificationsDecider } from '../../domain/achievements/index.ts';
import type { Tables } from '../../infra/database/schema.ts';
import type { EventMetadata, EventStore } from '../../infra/event-store/types.ts';
import { handleCommand } from '../handle-command.ts';

export const achievementsStream = (userId: string) => ({ streamId: `achievements-${userId}`, streamType: 'achievements' });

/** Marks the caller's own achievement notification shown; one not earned (or not theirs) is a 404. */
export async function markAchievementShown(
  context: { store: EventStore; db: Kysely<Tables>; metadata: EventMetadata },
  input: { userId: string; achievementId: number },
): Promise<void> {
  // Earned achievements are the async achievements read model's; the caller learned of this one from it.
  const earned = await context.db
    .selectFrom('user_achievements')
    .select('id')
    .where('user_id', '=', input.userId)
    .where('achievement_id', '=', input.achievementId)
    .executeTakeFirst();
  await handleCommand(context, {
    ...achievementsStream(input.userId),
    decider: achievementNotificationsDecider,
    command: {
      type: 'MarkAchievementShown',
      data: { userId: input.userId, achievementId: input.achievementId, earned: earned !== undefined, shownAt: context.metadata.timestamp },
    },
  });
}
