import { createHash, createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import { normalizeEmail } from '../../domain/accounts/identity.ts';
import type { Tables } from '../../infra/database/schema.ts';
import { serverSecret } from '../../infra/database/server-secrets.ts';

// Where the accounts aggregates live in the event store.

export const userStream = (userId: string) => ({ streamId: `user-${userId}`, streamType: 'user' });

/** The server secret the email-claim stream ids are keyed with (src/infra/database/server-secrets.ts). */
export const EMAIL_CLAIM_SECRET = 'email-claim';

/** The id an email-claim stream had before issue 34: `user-email-<sha256>`, which a dictionary of addresses reverses. */
export const legacyEmailClaimStreamId = (email: string) => `user-email-${createHash('sha256').update(normalizeEmail(email)).digest('hex')}`;

/**
 * An HMAC under a server secret, so the stream id neither leaks the address nor depends on its length or
 * characters, and, unlike a plain hash, nobody without the secret can try addresses against it (an erased account's
 * claim stream stays in the log, naming nobody). Keyed over the old id's hash rather than the address, so migration
 * 0022 moves the streams of a log written before from their ids alone, without reading an address.
 */
export const emailClaimStream = (email: string, secret: Buffer) => ({
  streamId: emailClaimStreamIdOf(legacyEmailClaimStreamId(email), secret),
  streamType: 'user-email',
});

/** The keyed id of a `user-email-<sha256>` stream. */
export function emailClaimStreamIdOf(legacyId: string, secret: Buffer): string {
  return `email-claim-${createHmac('sha256', secret).update(legacyId.slice('user-email-'.length)).digest('hex')}`;
}

/** Loads the secret once, on first use (a failed load is tried again next time). */
export function emailClaimSecret(db: Kysely<Tables>): () => Promise<Buffer> {
  let secret: Promise<Buffer> | undefined;
  return () =>
    (secret ??= serverSecret(db, EMAIL_CLAIM_SECRET).catch((error: unknown) => {
      secret = undefined;
      throw error;
    }));
}

export const guestSessionStream = (guestId: string) => ({ streamId: `guest-${guestId}`, streamType: 'guest-session' });

/** One emailed reset link, named by its token's hash: the token itself is only in the mail. */
export const passwordResetStream = (token: string) => ({
  streamId: `password-reset-${createHash('sha256').update(token).digest('hex')}`,
  streamType: 'password-reset',
});
