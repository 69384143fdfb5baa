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
import { cardGradedSchema, cardOwnerChangedSchema, cardSavedSchema, GRADING_EVIDENCE, savedOnGrading } from '../../domain/cards/index.ts';
import { rowProjection } from '../runner/row-projection.ts';
import { jsonColumn, rowTable, type RowStore } from '../runner/row-store.ts';
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

const userAchievements = rowTable('user_achievements', ['id']);
const achievementStats = rowTable('achievement_stats', ['user_id']);
const cardFacts = rowTable('achievement_card_facts', ['card_id']);
const countedCards = rowTable('achievement_counted_cards', ['user_id', 'card_id'], [['user_id', 'front_image_hash']]);

async function countCard(rows: RowStore, userId: string, card: { cardId: string; frontImageHash: string | null }, facts: GradedCardFacts, at: string): Promise<void> {
  // The card already counted for this user, or its photo on another card.
  if (await rows.get(countedCards, { user_id: userId, card_id: card.cardId })) return;
  if ((await rows.find(countedCards, { user_id: userId, front_image_hash: card.frontImageHash })).length > 0) return;
  rows.put(countedCards, { user_id: userId, card_id: card.cardId, front_image_hash: card.frontImageHash });

  const row = await rows.get(achievementStats, { user_id: userId });
  const stats = addGradedCard(row ? jsonColumn(row.stats) : emptyCollectorStats(), facts);
  rows.put(achievementStats, { user_id: userId, stats: JSON.stringify(stats) });

  for (const achievement of earnedAchievements(stats)) {
    await rows.insertIfAbsent(userAchievements, {
      id: `${userId}:${achievement.achievementId}`,
      user_id: userId,
      achievement_id: achievement.achievementId,
      earned_at: at,
    });
  }
}

export const achievementsProjection = rowProjection({
  name: 'achievements',
  handles: ['CardGraded', 'CardSaved', 'CardOwnerChanged', 'AchievementNotificationShown'],
  unreadParts: { CardGraded: GRADING_EVIDENCE },
  tables: [userAchievements, achievementStats, cardFacts, countedCards],
  async handle(rows, event) {
    switch (event.type) {
      case 'CardGraded': {
        const graded = gradedFactsSchema.parse(event.data);
        const facts = factsOfGradedCard(graded);
        const counts = savedOnGrading(graded);
        const frontImageHash = graded.images.front.hash;
        // Kept for every card, a guest's and an unsaved one too: it counts once saved, for whoever owns it then.
        rows.put(cardFacts, { card_id: graded.cardId, facts: JSON.stringify(facts), counts, front_image_hash: frontImageHash });
        const userId = userIdOf(graded.owner);
        if (userId && counts) await countCard(rows, userId, { cardId: graded.cardId, frontImageHash }, facts, graded.gradedAt);
        break;
      }
      case 'CardSaved': {
        const { cardId, owner, sample, savedAt } = cardSavedSchema.parse(event.data);
        if (sample) break;
        const row = await rows.get(cardFacts, { card_id: cardId });
        if (!row) break;
        await rows.update(cardFacts, { card_id: cardId }, { counts: true });
        const userId = userIdOf(owner);
        if (userId) await countCard(rows, userId, { cardId, frontImageHash: row.front_image_hash ?? null }, jsonColumn(row.facts), savedAt);
        break;
      }
      case 'CardOwnerChanged': {
        const { cardId, to, changedAt } = cardOwnerChangedSchema.parse(event.data);
        const userId = userIdOf(to);
        const row = await rows.get(cardFacts, { card_id: cardId });
        if (userId && row?.counts) await countCard(rows, userId, { cardId, frontImageHash: row.front_image_hash ?? null }, jsonColumn(row.facts), changedAt);
        break;
      }
      case 'AchievementNotificationShown': {
        const { userId, achievementId } = achievementNotificationShownSchema.parse(event.data);
        await rows.update(userAchievements, { id: `${userId}:${achievementId}` }, { notification_shown: true });
        break;
      }
    }
  },
});
