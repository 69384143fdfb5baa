import { AppError } from '../../contracts/errors.ts';
import { assertNever, type Decider } from '../decider.ts';
import type { GuestErased, GuestSessionClaimed, GuestSessionEvent } from './events.ts';

// A guest session's things move to an account once, when that browser signs in or registers
// (DESIGN.md §6). Stream `guest-<guestId>`. Claiming again for the same user changes nothing, so a
// retried sign-in is harmless; another user can never take a guest session that was already claimed.
// A guest who never signed in can be erased (issue 34): their data is then no one's to claim. A claimed one is
// erased with its account (AccountErased names its guest sessions), never on its own.

export type GuestSessionState = { status: 'unclaimed' } | { status: 'claimed'; userId: string } | { status: 'erased' };

export type ClaimGuestSession = { type: 'ClaimGuestSession'; data: GuestSessionClaimed['data'] };
export type EraseGuest = { type: 'EraseGuest'; data: GuestErased['data'] };
export type GuestSessionCommand = ClaimGuestSession | EraseGuest;

export const GUEST_CLAIMED_MESSAGE = 'This guest signed in since: what they sent belongs to their account, so erase the account.';

export function claimGuestSession(command: ClaimGuestSession, state: GuestSessionState): GuestSessionEvent[] {
  if (state.status !== 'unclaimed') return [];
  return [{ type: 'GuestSessionClaimed', data: command.data }];
}

export function eraseGuest(command: EraseGuest, state: GuestSessionState): GuestSessionEvent[] {
  if (state.status === 'erased') return [];
  if (state.status === 'claimed') throw new AppError('conflict', 'guest_claimed', GUEST_CLAIMED_MESSAGE);
  return [{ type: 'GuestErased', data: command.data }];
}

export function evolveGuestSession(_state: GuestSessionState, event: GuestSessionEvent): GuestSessionState {
  switch (event.type) {
    case 'GuestSessionClaimed':
      return { status: 'claimed', userId: event.data.userId };
    case 'GuestErased':
      return { status: 'erased' };
    default:
      return assertNever(event);
  }
}

export const guestSessionDecider: Decider<GuestSessionState, GuestSessionCommand, GuestSessionEvent> = {
  initialState: () => ({ status: 'unclaimed' }),
  evolve: evolveGuestSession,
  decide(command, state) {
    switch (command.type) {
      case 'ClaimGuestSession':
        return claimGuestSession(command, state);
      case 'EraseGuest':
        return eraseGuest(command, state);
      default:
        return assertNever(command);
    }
  },
};
