import { AppError } from '../../contracts/errors.ts';
import { assertNever, type Decider } from '../decider.ts';
import type { EmailClaimed, EmailClaimEvent } from './events.ts';

// Who holds an email address. One stream per normalised address (`email-claim-<HMAC>`, named by
// the command layer), so two registrations racing for the same address append to the SAME stream
// and the event store's optimistic check lets exactly one of them win. The user's own stream is
// written just after; if the process dies in between, the claim is left without an account. Such
// a claim is taken over once it is older than ABANDONED_CLAIM_MS, which the decider sees because
// the command says whether the claimant's account exists. (The users table's unique index on the
// normalised email is the backstop should a stalled writer wake up after a takeover.)

export const ABANDONED_CLAIM_MS = 10 * 60 * 1000;

export const EMAIL_TAKEN_MESSAGE = 'This email is already registered';

export type EmailClaimState = { status: 'free' } | { status: 'claimed'; userId: string; claimedAt: string };

export type ClaimEmail = {
  type: 'ClaimEmail';
  data: EmailClaimed['data'] & {
    /** Whether the current claimant's account was registered; read from its stream by the caller. */
    claimantRegistered: boolean;
  };
};
/** The holder's account was erased: whoever registers the address next gets it. */
export type ReleaseEmail = { type: 'ReleaseEmail'; data: { userId: string; releasedAt: string } };
export type EmailClaimCommand = ClaimEmail | ReleaseEmail;

export function releaseEmail(command: ReleaseEmail, state: EmailClaimState): EmailClaimEvent[] {
  if (state.status !== 'claimed' || state.userId !== command.data.userId) return [];
  return [{ type: 'EmailReleased', data: command.data }];
}

export function claimEmail(command: ClaimEmail, state: EmailClaimState): EmailClaimEvent[] {
  const { email, userId, claimedAt, claimantRegistered } = command.data;
  const claimed: EmailClaimed = { type: 'EmailClaimed', data: { email, userId, claimedAt } };
  if (state.status === 'free') return [claimed];
  if (state.userId === userId) return [];
  const abandoned = !claimantRegistered && Date.parse(claimedAt) - Date.parse(state.claimedAt) >= ABANDONED_CLAIM_MS;
  if (abandoned) return [claimed];
  throw new AppError('conflict', 'email_taken', EMAIL_TAKEN_MESSAGE);
}

export function evolveEmailClaim(_state: EmailClaimState, event: EmailClaimEvent): EmailClaimState {
  switch (event.type) {
    case 'EmailClaimed':
      return { status: 'claimed', userId: event.data.userId, claimedAt: event.data.claimedAt };
    case 'EmailReleased':
      return { status: 'free' };
    default:
      return assertNever(event);
  }
}

export const emailClaimDecider: Decider<EmailClaimState, EmailClaimCommand, EmailClaimEvent> = {
  initialState: () => ({ status: 'free' }),
  evolve: evolveEmailClaim,
  decide(command, state) {
    switch (command.type) {
      case 'ClaimEmail':
        return claimEmail(command, state);
      case 'ReleaseEmail':
        return releaseEmail(command, state);
      default:
        return assertNever(command);
    }
  },
};
