import type { AsyncProjection, InlineProjection } from '../infra/event-store/types.ts';
import { addressesProjection } from './addresses/addresses-projection.ts';
import { achievementsProjection } from './achievements/achievements-projection.ts';
import { achievementNotificationsProjection } from './achievements/notifications-projection.ts';
import { cardsProjection } from './cards/cards-projection.ts';
import { portfolioProjection } from './portfolio/portfolio-projection.ts';
import { feedbackProjection } from './feedback/feedback-projection.ts';
import { ordersProjection } from './orders/orders-projection.ts';
import { importsProjection } from './imports/imports-projection.ts';
import { leaderboardProjection } from './leaderboard/leaderboard-projection.ts';
import { professionalGradesProjection } from './professional-grades/professional-grades-projection.ts';
import { usersProjection } from './users/users-projection.ts';

// THE registry of projections. Add yours with one import and one line in the right list:
// inline where a screen must show its own write at once (runs in the append's transaction),
// async where the read model may lag (runs in a checkpointed runner). Order matters only within a list.

export const inlineProjections: readonly InlineProjection[] = [
  usersProjection,
  cardsProjection,
  achievementNotificationsProjection,
  portfolioProjection,
  feedbackProjection,
  addressesProjection,
  ordersProjection,
  importsProjection,
  professionalGradesProjection,
];

export const asyncProjections: readonly AsyncProjection[] = [
  leaderboardProjection,
  achievementsProjection,
];
