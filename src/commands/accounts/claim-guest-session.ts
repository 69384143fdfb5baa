import { guestSessionDecider } from '../../domain/accounts/guest-session.ts';
import { handleCommand } from '../handle-command.ts';
import { guestDataClaimers, type GuestDataClaimContext, type GuestDataClaimer } from './guest-data-claimers.ts';
import { guestSessionStream } from './streams.ts';

export interface ClaimGuestSessionResult {
  /** False when the guest session already belonged to another account: nothing moved. */
  claimed: boolean;
  /** Claimers that threw; the sign-in still stands, the guest's things of that feature stay where they were. */
  failures: { claimer: string; error: unknown }[];
}

/**
 * Records that a guest session's things now belong to `userId` (GuestSessionClaimed, once per guest),
 * then runs every registered claimer. Claimers also run when the session was already claimed by the
 * same user, so a sign-in retried after a crash finishes the move.
 */
export async function claimGuestSession(
  context: GuestDataClaimContext,
  input: { guestId: string; userId: string; claimedAt: string },
  claimers: readonly GuestDataClaimer[] = guestDataClaimers,
): Promise<ClaimGuestSessionResult> {
  const { state } = await handleCommand(context, {
    ...guestSessionStream(input.guestId),
    decider: guestSessionDecider,
    command: { type: 'ClaimGuestSession', data: input },
  });
  if (state.status !== 'claimed' || state.userId !== input.userId) return { claimed: false, failures: [] };
  const failures: ClaimGuestSessionResult['failures'] = [];
  for (const claimer of claimers) {
    try {
      await claimer.claim({ guestId: input.guestId, userId: input.userId }, context);
    } catch (error) {
      failures.push({ claimer: claimer.name, error });
    }
  }
  return { claimed: true, failures };
}
