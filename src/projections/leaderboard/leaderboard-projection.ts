import { sql, type Transaction } from 'kysely';
import { usernameChangedSchema, userRegisteredSchema } from '../../domain/accounts/events.ts';
import { cardDeletedSchema, cardGradedSchema, cardOwnerChangedSchema } from '../../domain/cards/index.ts';
import type { Tables } from '../../infra/database/schema.ts';
import type { AsyncProjection } from '../../infra/event-store/types.ts';
import { userIdOf } from '../cards/owner.ts';

// Async: how many cards each signed-in user has in the collection. Guests are not ranked: a guest's card counts
// once it moves to an account. Usernames come from UserRegistered, so the projection reads no other table
// and a rebuild gives the same rows.

/** Only the owner matters here; the rest of a graded card is not parsed. */
const gradedOwnerSchema = cardGradedSchema.pick({ owner: true });

async function addCards(trx: Transaction<Tables>, userId: string, delta: number): Promise<void> {
  await trx
    .insertInto('leaderboard')
    .values({ user_id: userId, username: null, card_count: delta })
    .onConflict((c) => c.column('user_id').doUpdateSet({ card_count: sql<number>`leaderboard.card_count + ${delta}` }))
    .execute();
}

export const leaderboardProjection: AsyncProjection = {
  name: 'leaderboard',
  handles: ['UserRegistered', 'UsernameChanged', 'CardGraded', 'CardDeleted', 'CardOwnerChanged'],
  tables: ['leaderboard'],
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
          const userId = userIdOf(gradedOwnerSchema.parse(event.data).owner);
          if (userId) await addCards(trx, userId, 1);
          break;
        }
        case 'CardDeleted': {
          const userId = userIdOf(cardDeletedSchema.parse(event.data).owner);
          if (userId) await addCards(trx, userId, -1);
          break;
        }
        case 'CardOwnerChanged': {
          const { from, to } = cardOwnerChangedSchema.parse(event.data);
          const fromUser = userIdOf(from);
          const toUser = userIdOf(to);
          if (fromUser) await addCards(trx, fromUser, -1);
          if (toUser) await addCards(trx, toUser, 1);
          break;
        }
      }
    }
  },
};
