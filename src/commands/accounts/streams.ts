import { createHash } from 'node:crypto';
import { normalizeEmail } from '../../domain/accounts/identity.ts';

// Where the accounts aggregates live in the event store.

export const userStream = (userId: string) => ({ streamId: `user-${userId}`, streamType: 'user' });

/** Hashed so the stream id neither leaks the address nor depends on its length or characters. */
export const emailClaimStream = (email: string) => ({
  streamId: `user-email-${createHash('sha256').update(normalizeEmail(email)).digest('hex')}`,
  streamType: 'user-email',
});

export const guestSessionStream = (guestId: string) => ({ streamId: `guest-${guestId}`, streamType: 'guest-session' });

/** One emailed reset link, named by its token's hash: the token itself is only in the mail. */
export const passwordResetStream = (token: string) => ({
  streamId: `password-reset-${createHash('sha256').update(token).digest('hex')}`,
  streamType: 'password-reset',
});
