import type { Kysely } from 'kysely';
import { guestCardsClaimer } from '../cards/claim-guest-cards.ts';
import type { Tables } from '../../infra/database/schema.ts';
import type { CommandContext } from '../handle-command.ts';

export interface GuestDataClaimContext extends CommandContext {
  /** To find what the guest owns in the read models. */
  db: Kysely<Tables>;
}

/**
 * Moves one feature's things owned by `guest:<guestId>` to `user:<userId>` (DESIGN.md §6), typically by
 * appending an ownership-transfer event to each. It runs again when a sign-in is retried, so it must be
 * idempotent.
 */
export interface GuestDataClaimer {
  name: string;
  claim(input: { guestId: string; userId: string }, context: GuestDataClaimContext): Promise<void>;
}

// THE registry: every feature whose things a guest can own adds its claimer here, with one import and one line.
export const guestDataClaimers: GuestDataClaimer[] = [guestCardsClaimer];
