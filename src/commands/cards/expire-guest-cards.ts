import type { GuestDataExpirer } from '../accounts/expire-guest-data.ts';
import { cardDecider } from '../../domain/cards/index.ts';
import { handleCommand } from '../handle-command.ts';
import { cardStream } from './streams.ts';

/**
 * A guest's cards past the guest's 7 days (DESIGN.md §6): one CardDeleted each, so the collection, the card page and
 * a rebuild all lose them alike; the CardGraded events stay in the log. Found in card_grades like the claimer finds
 * them; a card claimed meanwhile is no longer the guest's and stays.
 */
export const guestCardsExpirer: GuestDataExpirer = {
  name: 'cards',
  async expire({ guestId, expiredAt }, context) {
    const guest = `guest:${guestId}` as const;
    const rows = await context.db.selectFrom('card_grades').select('id').where('owner', '=', guest).execute();
    for (const { id } of rows) {
      await handleCommand(context, { ...cardStream(id), decider: cardDecider, command: { type: 'ExpireGuestCard', data: { cardId: id, guest, expiredAt } } });
    }
  },
};
