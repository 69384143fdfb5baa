import type { GuestDataClaimer } from '../accounts/guest-data-claimers.ts';
import { cardDecider } from '../../domain/cards/index.ts';
import { handleCommand } from '../handle-command.ts';
import { cardStream } from './streams.ts';

/**
 * At sign-in, the guest's cards move to the account (DESIGN.md §6): one CardOwnerChanged per card. The cards are
 * found in card_grades, which the cards projection writes inline, so every card the guest has is there. A retried
 * sign-in finds none left under the guest, or claims the rest.
 */
export const guestCardsClaimer: GuestDataClaimer = {
  name: 'cards',
  async claim({ guestId, userId }, context) {
    const guest = `guest:${guestId}` as const;
    const user = `user:${userId}` as const;
    const rows = await context.db.selectFrom('card_grades').select('id').where('owner', '=', guest).execute();
    for (const { id } of rows) {
      await handleCommand(context, {
        ...cardStream(id),
        decider: cardDecider,
        command: { type: 'ClaimGuestCard', data: { cardId: id, guest, user, claimedAt: context.metadata.timestamp } },
      });
    }
  },
};
