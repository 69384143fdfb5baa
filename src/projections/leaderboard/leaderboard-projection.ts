import { sql, type Transaction } from 'kysely';
import { z } from 'zod';
import { usernameChangedSchema, userRegisteredSchema } from '../../domain/accounts/events.ts';
import { cardDeletedSchema, cardGradedSchema, cardOwnerChangedSchema, cardSavedSchema, savedOnGrading } from '../../domain/cards/index.ts';
import type { Tables } from '../../infra/database/schema.ts';
import type { AsyncProjection } from '../../infra/event-store/types.ts';
import { userIdOf } from '../cards/owner.ts';

// Async: how many cards of their own grading each signed-in user has saved to the collection (issue 18): a grade
// left unsaved counts for nothing, nor does a sample card, and the same photo saved on two cards counts once.
// Guests are not ranked: a guest's card counts once it moves to an account. Usernames come from UserRegistered,
// and every card is kept in leaderboard_cards, so the projection reads no other table and a rebuild gives the same rows.

/** Only the owner, the id and the front photo matter here; the rest of a graded card is not parsed. */
const gradedCardSchema = cardGradedSchema.pick({ cardId: true, owner: true, savedSeparately: true }).extend({
  images: z.object({ front: z.object({ hash: z.string() }) }),
});

/** A user's count is their distinct front photos among cards counted. */
async function recount(trx: Transaction<Tables>, userId: string | null): Promise<void> {
  if (!userId) return;
  const row = await trx
    .selectFrom('leaderboard_cards')
    .select(sql<number>`count(distinct front_image_hash)::int`.as('n'))
    .where('user_id', '=', userId)
    .where('counted', '=', true)
    .executeTakeFirstOrThrow();
  const cardCount = Number(row.n);
  await trx
    .insertInto('leaderboard')
    .values({ user_id: userId, username: null, card_count: cardCount })
    .onConflict((c) => c.column('user_id').doUpdateSet({ card_count: cardCount }))
    .execute();
}

export const leaderboardProjection: AsyncProjection = {
  name: 'leaderboard',
  handles: ['UserRegistered', 'UsernameChanged', 'CardGraded', 'CardSaved', 'CardDeleted', 'CardOwnerChanged'],
  tables: ['leaderboard', 'leaderboard_cards'],
  async apply(trx, events) {
    for (const event of events) {
      switch (event.type) {
        case 'UserRegistered': {
          const { userId, username } = userRegisteredSchema.parse(event.data);
          await trx
            .insertInto('leaderboard')
            .values({ user_id: userId, username, card_count: 0 })
            .onConflict((c) => c.column('user_id').doUpdateSet({ username }))
            .execute();
          break;
        }
        case 'UsernameChanged': {
          const { userId, to } = usernameChangedSchema.parse(event.data);
          await trx
            .insertInto('leaderboard')
            .values({ user_id: userId, username: to, card_count: 0 })
            .onConflict((c) => c.column('user_id').doUpdateSet({ username: to }))
            .execute();
          break;
        }
        case 'CardGraded': {
          const graded = gradedCardSchema.parse(event.data);
          const userId = userIdOf(graded.owner);
          const card = { user_id: userId, front_image_hash: graded.images.front.hash, counted: savedOnGrading(graded) };
          await trx
            .insertInto('leaderboard_cards')
            .values({ card_id: graded.cardId, ...card })
            .onConflict((c) => c.column('card_id').doUpdateSet(card))
            .execute();
          await recount(trx, userId);
          break;
        }
        case 'CardSaved': {
          const { cardId, owner, sample } = cardSavedSchema.parse(event.data);
          await trx.updateTable('leaderboard_cards').set({ counted: !sample }).where('card_id', '=', cardId).execute();
          await recount(trx, userIdOf(owner));
          break;
        }
        case 'CardDeleted': {
          const { cardId, owner } = cardDeletedSchema.parse(event.data);
          await trx.deleteFrom('leaderboard_cards').where('card_id', '=', cardId).execute();
          await recount(trx, userIdOf(owner));
          break;
        }
        case 'CardOwnerChanged': {
          const { cardId, from, to } = cardOwnerChangedSchema.parse(event.data);
          await trx.updateTable('leaderboard_cards').set({ user_id: userIdOf(to) }).where('card_id', '=', cardId).execute();
          await recount(trx, userIdOf(from));
          await recount(trx, userIdOf(to));
          break;
        }
      }
    }
  },
};
