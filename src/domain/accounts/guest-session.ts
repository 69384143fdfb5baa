import { assertNever, type Decider } from '../decider.ts';
import type { GuestSessionClaimed, GuestSessionEvent } from './events.ts';

// A guest session's things move to an account once, when that browser signs in or registers
// (DESIGN.md §6). Stream `guest-<guestId>`. Claiming again for the same user changes nothing, so a
// retried sign-in is harmless; another user can never take a guest session that was already claimed.

export type GuestSessionState = { status: 'unclaimed' } | { status: 'claimed'; userId: string };

export type ClaimGuestSession = { type: 'ClaimGuestSession'; data: GuestSessionClaimed['data'] };
export type GuestSessionCommand = ClaimGuestSession;

export function claimGuestSession(command: ClaimGuestSession, state: GuestSessionState): GuestSessionEvent[] {
  if (state.status === 'claimed') return [];
  return [{ type: 'GuestSessionClaimed', data: command.data }];
}

export function evolveGuestSession(_state: GuestSessionState, event: GuestSessionEvent): GuestSessionState {
  switch (event.type) {
    case 'GuestSessionClaimed':
      return { status: 'claimed', userId: event.data.userId };
    default:
      return assertNever(event.type);
  }
}

export const guestSessionDecider: Decider<GuestSessionState, GuestSessionCommand, GuestSessionEvent> = {
  initialState: () => ({ status: 'unclaimed' }),
  evolve: evolveGuestSession,
  decide(command, state) {
    switch (command.type) {
      case 'ClaimGuestSession':
        return claimGuestSession(command, state);
      default:
        return assertNever(command.type);
    }
  },
};
