import { z } from 'zod';
import { accountErasedSchema, leaderboardOptOutChangedSchema, usernameChangedSchema, userRegisteredSchema } from '../../domain/accounts/events.ts';
import { cardDeletedSchema, cardGradedSchema, cardOwnerChangedSchema, cardSavedSchema, GRADING_EVIDENCE, savedOnGrading } from '../../domain/cards/index.ts';
import { rowProjection } from '../runner/row-projection.ts';
import { rowTable, type RowStore } from '../runner/row-store.ts';
import { userIdOf } from '../cards/owner.ts';

// Async: how many cards of their own grading each signed-in user has saved to the collection (issue 18): a grade
// left unsaved counts for nothing, nor does a sample card, and the same photo saved on two cards counts once.
// Guests are not ranked: a guest's card counts once it moves to an account. Usernames come from UserRegistered,
// and every card is kept in leaderboard_cards, so the projection reads no other table and a rebuild gives the same rows.
// Counts are taken once per batch of events, for the users whose cards it changed.

/** Only the owner, the id and the front photo matter here; the rest of a graded card is not parsed. */
const gradedCardSchema = cardGradedSchema.pick({ cardId: true, owner: true, savedSeparately: true }).extend({
  images: z.object({ front: z.object({ hash: z.string() }) }),
});

const leaderboard = rowTable('leaderboard', ['user_id']);
const leaderboardCards = rowTable('leaderboard_cards', ['card_id'], [['user_id']]);

/**
 * A user's count is their distinct front photos among cards counted: counted again once, when the batch's events
 * have all been applied, for every user whose cards they changed (whatever the batch, the count of the rows as they end).
 */
function recount(rows: RowStore, userId: string | null): void {
  if (!userId) return;
  rows.beforeNextFlush(`recount ${userId}`, async () => {
    const cards = await rows.find(leaderboardCards, { user_id: userId });
    const cardCount = new Set(cards.filter((card) => card.counted).map((card) => card.front_image_hash)).size;
    if (await rows.get(leaderboard, { user_id: userId })) await rows.update(leaderboard, { user_id: userId }, { card_count: cardCount });
    else rows.put(leaderboard, { user_id: userId, username: null, card_count: cardCount, listed: true });
  });
}

async function setUsername(rows: RowStore, userId: string, username: string): Promise<void> {
  if (await rows.get(leaderboard, { user_id: userId })) await rows.update(leaderboard, { user_id: userId }, { username });
  else rows.put(leaderboard, { user_id: userId, username, card_count: 0, listed: true });
}

export const leaderboardProjection = rowProjection({
  name: 'leaderboard',
  handles: ['UserRegistered', 'UsernameChanged', 'LeaderboardOptOutChanged', 'AccountErased', 'CardGraded', 'CardSaved', 'CardDeleted', 'CardOwnerChanged'],
  unreadParts: { CardGraded: GRADING_EVIDENCE },
  tables: [leaderboard, leaderboardCards],
  async handle(rows, event) {
    switch (event.type) {
      case 'UserRegistered': {
        const { userId, username } = userRegisteredSchema.parse(event.data);
        await setUsername(rows, userId, username);
        break;
      }
      case 'UsernameChanged': {
        const { userId, to } = usernameChangedSchema.parse(event.data);
        await setUsername(rows, userId, to);
        break;
      }
      case 'LeaderboardOptOutChanged': {
        const { userId, optedOut } = leaderboardOptOutChangedSchema.parse(event.data);
        if (await rows.get(leaderboard, { user_id: userId })) await rows.update(leaderboard, { user_id: userId }, { listed: !optedOut });
        else rows.put(leaderboard, { user_id: userId, username: null, card_count: 0, listed: !optedOut });
        break;
      }
      case 'AccountErased': {
        // An erased account is never ranked again, and its name is gone (a nameless row is not listed).
        const { userId } = accountErasedSchema.parse(event.data);
        if (await rows.get(leaderboard, { user_id: userId })) await rows.update(leaderboard, { user_id: userId }, { username: null, listed: false });
        break;
      }
      case 'CardGraded': {
        const graded = gradedCardSchema.parse(event.data);
        const userId = userIdOf(graded.owner);
        // A card graded again under another owner leaves its former owner's count too.
        const before = await rows.get(leaderboardCards, { card_id: graded.cardId });
        if (before && (before.user_id ?? null) !== userId) recount(rows, before.user_id ?? null);
        rows.put(leaderboardCards, { card_id: graded.cardId, user_id: userId, front_image_hash: graded.images.front.hash, counted: savedOnGrading(graded) });
        recount(rows, userId);
        break;
      }
      case 'CardSaved': {
        const { cardId, owner, sample } = cardSavedSchema.parse(event.data);
        await rows.update(leaderboardCards, { card_id: cardId }, { counted: !sample });
        recount(rows, userIdOf(owner));
        break;
      }
      case 'CardDeleted': {
        const { cardId, owner } = cardDeletedSchema.parse(event.data);
        await rows.delete(leaderboardCards, { card_id: cardId });
        recount(rows, userIdOf(owner));
        break;
      }
      case 'CardOwnerChanged': {
        const { cardId, from, to } = cardOwnerChangedSchema.parse(event.data);
        await rows.update(leaderboardCards, { card_id: cardId }, { user_id: userIdOf(to) });
        recount(rows, userIdOf(from));
        recount(rows, userIdOf(to));
        break;
      }
    }
  },
});
