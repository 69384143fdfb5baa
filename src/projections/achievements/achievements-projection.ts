import type { Transaction } from 'kysely';
import { z } from 'zod';
import { gradedCardSchema } from '../../contracts/grading.ts';
import {
  achievementNotificationShownSchema,
  addGradedCard,
  earnedAchievements,
  emptyCollectorStats,
  factsOfGradedCard,
  type GradedCardFacts,
} from '../../domain/achievements/index.ts';
import { cardGradedSchema, cardOwnerChangedSchema } from '../../domain/cards/index.ts';
import type { Tables } from '../../infra/database/schema.ts';
import type { AsyncProjection } from '../../infra/event-store/types.ts';
import { userIdOf } from '../cards/owner.ts';

// Async: achievements earned from what each user comes to own, a card graded or a guest's card claimed, through
// the pure catalogue (src/domain/achievements). Earned once, kept: deleting a card takes nothing away, and a card
// counts once per user however often it is graded again. Times are the events' own, so a rebuild gives equal rows.

/** What achievements look at, and no more: the engine's measurements are not parsed. */
const gradedFactsSchema = cardGradedSchema.pick({ cardId: true, owner: true, gradedAt: true }).extend({
  images: z.object({ back: z.unknown() }),
  result: gradedCardSchema.pick({ overallGrade: true, cardSet: true, rarity: true, grades: true }),
});

async function countCard(trx: Transaction<Tables>, userId: string, cardId: string, facts: GradedCardFacts, at: string): Promise<void> {
  const counted = await trx
    .insertInto('achievement_counted_cards')
    .values({ user_id: userId, card_id: cardId })
    .onConflict((c) => c.columns(['user_id', 'card_id']).doNothing())
    .returning('card_id')
    .executeTakeFirst();
  if (!counted) return;

  const row = await trx.selectFrom('achievement_stats').select('stats').where('user_id', '=', userId).executeTakeFirst();
  const stats = addGradedCard(row?.stats ?? emptyCollectorStats(), facts);
  await trx
    .insertInto('achievement_stats')
    .values({ user_id: userId, stats: JSON.stringify(stats) })
    .onConflict((c) => c.column('user_id').doUpdateSet({ stats: JSON.stringify(stats) }))
    .execute();

  const earned = earnedAchievements(stats);
  if (earned.length === 0) return;
  await trx
    .insertInto('user_achievements')
    .values(earned.map((a) => ({ id: `${userId}:${a.achievementId}`, user_id: userId, achievement_id: a.achievementId, earned_at: at })))
    .onConflict((c) => c.column('id').doNothing())
    .execute();
}

export const achievementsProjection: AsyncProjection = {
  name: 'achievements',
  handles: ['CardGraded', 'CardOwnerChanged', 'AchievementNotificationShown'],
  tables: ['user_achievements', 'achievement_stats', 'achievement_card_facts', 'achievement_counted_cards'],
  async apply(trx, events) {
    for (const event of events) {
      switch (event.type) {
        case 'CardGraded': {
          const graded = gradedFactsSchema.parse(event.data);
          const facts = factsOfGradedCard(graded);
          // Kept for every card, a guest's too: it counts for the account that claims it later.
          await trx
            .insertInto('achievement_card_facts')
            .values({ card_id: graded.cardId, facts: JSON.stringify(facts) })
            .onConflict((c) => c.column('card_id').doUpdateSet({ facts: JSON.stringify(facts) }))
            .execute();
          const userId = userIdOf(graded.owner);
          if (userId) await countCard(trx, userId, graded.cardId, facts, graded.gradedAt);
          break;
        }
        case 'CardOwnerChanged': {
          const { cardId, to, changedAt } = cardOwnerChangedSchema.parse(event.data);
          const userId = userIdOf(to);
          const row = await trx.selectFrom('achievement_card_facts').select('facts').where('card_id', '=', cardId).executeTakeFirst();
          if (userId && row) await countCard(trx, userId, cardId, row.facts, changedAt);
          break;
        }
        case 'AchievementNotificationShown': {
          const { userId, achievementId } = achievementNotificationShownSchema.parse(event.data);
          await trx
            .updateTable('user_achievements')
            .set({ notification_shown: true })
            .where('user_id', '=', userId)
            .where('achievement_id', '=', achievementId)
            .execute();
          break;
        }
      }
    }
  },
};
