import { randomBytes } from 'node:crypto';
import { RESET_LINK_TTL_MS, type PasswordResetLinkStatus } from '../../contracts/password-reset.ts';
import type { PasswordChanged, PasswordResetEvent } from '../../domain/accounts/events.ts';
import { passwordResetDecider, resetLinkStatus, type PasswordResetState } from '../../domain/accounts/password-reset.ts';
import { userDecider } from '../../domain/accounts/user.ts';
import type { EventStore } from '../../infra/event-store/types.ts';
import { handleCommand, type CommandContext } from '../handle-command.ts';
import { passwordResetStream, userStream } from './streams.ts';

// Password reset by email (issue 35): a link issued to an account, then used once to record a new password.

/** Issues a link for the account: returns the token for the mail (it is recorded nowhere, only its hash). */
export async function issuePasswordReset(context: CommandContext, input: { userId: string; at: Date }): Promise<{ token: string; expiresAt: string }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(input.at.getTime() + RESET_LINK_TTL_MS).toISOString();
  await handleCommand(context, {
    ...passwordResetStream(token),
    decider: passwordResetDecider,
    command: { type: 'IssuePasswordReset', data: { userId: input.userId, requestedAt: input.at.toISOString(), expiresAt } },
    retries: 0,
  });
  return { token, expiresAt };
}

async function linkState(store: EventStore, token: string): Promise<PasswordResetState> {
  const { events } = await store.readStream(passwordResetStream(token).streamId);
  return events.reduce((s, e) => passwordResetDecider.evolve(s, e as unknown as PasswordResetEvent), passwordResetDecider.initialState());
}

/** When the account's password last changed (Settings or a link), from its stream; null if never. */
async function lastPasswordChange(store: EventStore, userId: string): Promise<string | null> {
  const { events } = await store.readStream(userStream(userId).streamId);
  // The clock's time in the event (as the link's requestedAt is), not the database's.
  const last = events.findLast((e) => e.type === 'PasswordChanged');
  return last ? (last.data as PasswordChanged['data']).at : null;
}

/** What a link is worth now, without changing anything (the page asks before showing the form). */
export async function passwordResetStatus(store: EventStore, token: string, at: string): Promise<PasswordResetLinkStatus> {
  const state = await linkState(store, token);
  return resetLinkStatus(state, at, state.status === 'issued' ? await lastPasswordChange(store, state.userId) : null);
}

/**
 * Spends the link, then records the new password's hash on the account. In that order: two requests racing with one
 * link append at the same version of its stream, so only one of them gets past the first step. Refuses a link that
 * is unknown, used or expired (AppError invalid, `reset_link_*`). Returns the account's id.
 */
export async function resetPassword(context: CommandContext, input: { token: string; passwordHash: string; at: string }): Promise<{ userId: string }> {
  const issued = await linkState(context.store, input.token);
  const passwordChangedAt = issued.status === 'issued' ? await lastPasswordChange(context.store, issued.userId) : null;
  const { state } = await handleCommand(context, {
    ...passwordResetStream(input.token),
    decider: passwordResetDecider,
    command: { type: 'UsePasswordReset', data: { usedAt: input.at, passwordChangedAt } },
    // The loser of a race reads the link again, finds it used, and is refused as such.
    retries: 1,
  });
  if (state.status !== 'used') throw new Error('a reset link was spent without being marked used');
  const { userId } = state;
  await handleCommand(context, {
    ...userStream(userId),
    decider: userDecider,
    command: { type: 'ChangePassword', data: { userId, passwordHash: input.passwordHash, at: input.at, via: 'reset_link' } },
  });
  return { userId };
}
