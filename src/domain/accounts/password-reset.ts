import { AppError } from '../../contracts/errors.ts';
import { passwordResetMessages, resetLinkErrorCodes, type PasswordResetLinkStatus } from '../../contracts/password-reset.ts';
import { assertNever, type Decider } from '../decider.ts';
import type { PasswordResetEvent, PasswordResetRequested, PasswordResetUsed } from './events.ts';

// One emailed reset link, stream `password-reset-<sha256(token)>`: it works once, until it expires.

export type PasswordResetState =
  | { status: 'none' }
  | { status: 'issued'; userId: string; requestedAt: string; expiresAt: string }
  | { status: 'used'; userId: string };

/** A fresh token: its stream must be new (a token is 256 random bits; a collision is a bug, not a user's doing). */
export type IssuePasswordReset = { type: 'IssuePasswordReset'; data: PasswordResetRequested['data'] };
/**
 * The link followed with a new password, at `usedAt` (the clock's now). `passwordChangedAt`: the account's last
 * password change, read from its stream: a link sent before it no longer works.
 */
export type UsePasswordReset = { type: 'UsePasswordReset'; data: { usedAt: string; passwordChangedAt: string | null } };
export type PasswordResetCommand = IssuePasswordReset | UsePasswordReset;

/**
 * What the link is worth at `at`, given the account's last password change: the page says so before asking for a
 * password. Using one link of several, or changing the password in Settings, ends the others.
 */
export function resetLinkStatus(state: PasswordResetState, at: string, passwordChangedAt: string | null): PasswordResetLinkStatus {
  if (state.status === 'none') return 'invalid';
  if (state.status === 'used') return 'used';
  if (passwordChangedAt !== null && Date.parse(passwordChangedAt) >= Date.parse(state.requestedAt)) return 'superseded';
  return Date.parse(at) >= Date.parse(state.expiresAt) ? 'expired' : 'valid';
}

export function resetLinkRefusal(status: Exclude<PasswordResetLinkStatus, 'valid'>): AppError {
  return new AppError('invalid', resetLinkErrorCodes[status], passwordResetMessages[status]);
}

export function issuePasswordReset(command: IssuePasswordReset, state: PasswordResetState): PasswordResetEvent[] {
  if (state.status !== 'none') throw new AppError('conflict', 'reset_link_exists', 'This reset link already exists');
  return [{ type: 'PasswordResetRequested', data: command.data }];
}

export function usePasswordReset(command: UsePasswordReset, state: PasswordResetState): PasswordResetUsed[] {
  const status = resetLinkStatus(state, command.data.usedAt, command.data.passwordChangedAt);
  if (status !== 'valid' || state.status !== 'issued') throw resetLinkRefusal(status === 'valid' ? 'invalid' : status);
  return [{ type: 'PasswordResetUsed', data: { userId: state.userId, usedAt: command.data.usedAt } }];
}

export function evolvePasswordReset(state: PasswordResetState, event: PasswordResetEvent): PasswordResetState {
  switch (event.type) {
    case 'PasswordResetRequested':
      return { status: 'issued', userId: event.data.userId, requestedAt: event.data.requestedAt, expiresAt: event.data.expiresAt };
    case 'PasswordResetUsed':
      return { status: 'used', userId: event.data.userId };
    default:
      return assertNever(event);
  }
}

export const passwordResetDecider: Decider<PasswordResetState, PasswordResetCommand, PasswordResetEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolvePasswordReset,
  decide(command, state) {
    switch (command.type) {
      case 'IssuePasswordReset':
        return issuePasswordReset(command, state);
      case 'UsePasswordReset':
        return usePasswordReset(command, state);
      default:
        return assertNever(command);
    }
  },
};
