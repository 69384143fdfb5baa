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
import { cardGradedSchema, cardOwnerChangedSchema, cardSavedSchema, savedOnGrading } from '../../domain/cards/index.ts';
import type { Tables } from '../../infra/database/schema.ts';
import type { AsyncProjection } from '../../infra/event-store/types.ts';
import { userIdOf } from '../cards/owner.ts';

// Async: achievements earned from the user's own grading (issue 18): a card they save, or a saved guest card they
// claim, through the pure catalogue (src/domain/achievements). A grade left unsaved and a sample card earn nothing.
// Earned once, kept: deleting a card takes nothing away, and a photo counts once per user however often it is graded
// or saved again, on whatever card. Times are the events' own, so a rebuild gives equal rows.

/** What achievements look at, and no more: the engine's measurements are not parsed. */
const gradedFactsSchema = cardGradedSchema.pick({ cardId: true, owner: true, gradedAt: true, savedSeparately: true }).extend({
  images: z.object({ front: z.object({ hash: z.string() }), back: z.unknown() }),
  result: gradedCardSchema.pick({ overallGrade: true, cardSet: true, rarity: true, grades: true }),
});

async function countCard(trx: Transaction<Tables>, userId: string, card: { cardId: string; frontImageHash: string | null }, facts: GradedCardFacts, at: string): Promise<void> {
  const counted = await trx
    .insertInto('achievement_counted_cards')
    .values({ user_id: userId, card_id: card.cardId, front_image_hash: card.frontImageHash })
    // The card already counted for this user, or its photo on another card.
    .onConflict((c) => c.doNothing())
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
  handles: ['CardGraded', 'CardSaved', 'CardOwnerChanged', 'AchievementNotificationShown'],
  tables: ['user_achievements', 'achievement_stats', 'achievement_card_facts', 'achievement_counted_cards'],
  async apply(trx, events) {
    for (const event of events) {
      switch (event.type) {
        case 'CardGraded': {
          const graded = gradedFactsSchema.parse(event.data);
          const facts = factsOfGradedCard(graded);
          const counts = savedOnGrading(graded);
          const frontImageHash = graded.images.front.hash;
          // Kept for every card, a guest's and an unsaved one too: it counts once saved, for whoever owns it then.
          const row = { facts: JSON.stringify(facts), counts, front_image_hash: frontImageHash };
          await trx
            .insertInto('achievement_card_facts')
            .values({ card_id: graded.cardId, ...row })
            .onConflict((c) => c.column('card_id').doUpdateSet(row))
            .execute();
          const userId = userIdOf(graded.owner);
          if (userId && counts) await countCard(trx, userId, { cardId: graded.cardId, frontImageHash }, facts, graded.gradedAt);
          break;
        }
        case 'CardSaved': {
          const { cardId, owner, sample, savedAt } = cardSavedSchema.parse(event.data);
          if (sample) break;
          const row = await trx
            .updateTable('achievement_card_facts')
            .set({ counts: true })
            .where('card_id', '=', cardId)
            .returning(['facts', 'front_image_hash'])
            .executeTakeFirst();
          const userId = userIdOf(owner);
          if (userId && row) await countCard(trx, userId, { cardId, frontImageHash: row.front_image_hash }, row.facts, savedAt);
          break;
        }
        case 'CardOwnerChanged': {
          const { cardId, to, changedAt } = cardOwnerChangedSchema.parse(event.data);
          const userId = userIdOf(to);
          const row = await trx.selectFrom('achievement_card_facts').select(['facts', 'counts', 'front_image_hash']).where('card_id', '=', cardId).executeTakeFirst();
          if (userId && row?.counts) await countCard(trx, userId, { cardId, frontImageHash: row.front_image_hash }, row.facts, changedAt);
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
