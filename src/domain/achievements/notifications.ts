import { z } from 'zod';
import { AppError } from '../../contracts/errors.ts';
import { assertNever, type Decider, type DomainEvent } from '../decider.ts';
import { achievementById } from './catalogue.ts';

// The 'Achievement Unlocked!' notification (SPEC.md §4): once its user closes it, or it dismisses itself, it is
// marked shown and never comes back. Stream `achievements-<userId>`, so a user can only mark their own.

export const achievementNotificationShownSchema = z.object({
  userId: z.string(),
  achievementId: z.number().int(),
  shownAt: z.string(),
});
export type AchievementNotificationShown = DomainEvent<'AchievementNotificationShown', z.infer<typeof achievementNotificationShownSchema>>;
export type AchievementNotificationEvent = AchievementNotificationShown;

export interface AchievementNotificationsState {
  shown: readonly number[];
}

/** `earned`: whether the user has earned it, as the achievements read model says (the command looks it up). */
export type MarkAchievementShown = {
  type: 'MarkAchievementShown';
  data: { userId: string; achievementId: number; earned: boolean; shownAt: string };
};
export type AchievementNotificationCommand = MarkAchievementShown;

export const achievementNotFound = () => new AppError('not_found', 'achievement_not_found', 'Achievement not found');

/** Marking one already shown changes nothing, so a retried call succeeds. */
export function markAchievementShown(command: MarkAchievementShown, state: AchievementNotificationsState): AchievementNotificationEvent[] {
  const { userId, achievementId, earned, shownAt } = command.data;
  if (!achievementById(achievementId) || !earned) throw achievementNotFound();
  if (state.shown.includes(achievementId)) return [];
  return [{ type: 'AchievementNotificationShown', data: { userId, achievementId, shownAt } }];
}

export const achievementNotificationsDecider: Decider<AchievementNotificationsState, AchievementNotificationCommand, AchievementNotificationEvent> = {
  initialState: () => ({ shown: [] }),
  evolve(state, event) {
    switch (event.type) {
      case 'AchievementNotificationShown':
        return { shown: [...state.shown, event.data.achievementId] };
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'MarkAchievementShown':
        return markAchievementShown(command, state);
      default:
        return assertNever(command.type);
    }
  },
};
