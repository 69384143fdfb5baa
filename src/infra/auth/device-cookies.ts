import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { normalizeEmail } from '../../domain/accounts/identity.ts';
import { serverSecret } from '../database/server-secrets.ts';
import type { Tables } from '../database/schema.ts';

// Device cookies (OWASP's answer to lockout): a browser that has signed in to an account before carries a token,
// signed by the server, that says so. Such a browser is exempt from the account's sign-in throttle, so the owner
// gets in while someone guesses the password from elsewhere; unknown browsers stay throttled. A token names no
// account in clear: it is a nonce and an HMAC of the account key (a hash of the email) with that nonce.
// The HMAC also covers a secret of the account's own (issue 34): changing the password or signing out everywhere
// replaces it, so every device cookie issued for the account before stops exempting its browser from the throttle.

export const DEVICE_COOKIE = 'did';
/** Tokens a browser keeps (one per account it signed in to); the oldest goes first. */
const MAX_TOKENS = 5;
const SECRET_NAME = 'device-cookie-hmac';
const accountSecretName = (accountKey: string) => `device-cookie-account:${accountKey}`;

/** The key an account's device cookies and sign-in limits are counted under: a hash of its normalised email. */
export const accountKeyOf = (email: string) => createHash('sha256').update(normalizeEmail(email)).digest('hex');

export interface DeviceCookies {
  /** True when one of the cookie's tokens was issued for this account. */
  knows(cookie: string | undefined, accountKey: string): Promise<boolean>;
  /** The cookie's new value with a token for this account added. */
  add(cookie: string | undefined, accountKey: string): Promise<string>;
  /** Every token issued for this account so far stops being known. */
  revokeAll(accountKey: string): Promise<void>;
}

export function createDeviceCookies(db: Kysely<Tables>): DeviceCookies {
  let secret: Promise<Buffer> | undefined;
  const key = () =>
    (secret ??= serverSecret(db, SECRET_NAME).catch((error: unknown) => {
      secret = undefined;
      throw error;
    }));
  /** The server's key and the account's own secret, which revokeAll replaces. */
  const keysOf = async (accountKey: string) => ({ k: await key(), account: (await serverSecret(db, accountSecretName(accountKey))).toString('base64url') });
  const sign = ({ k, account }: { k: Buffer; account: string }, accountKey: string, nonce: string) =>
    createHmac('sha256', k).update(`${accountKey}.${account}.${nonce}`).digest().subarray(0, 16).toString('base64url');
  const tokensOf = (cookie: string | undefined) => (cookie ?? '').split('~').filter((t) => /^[\w-]{16}\.[\w-]{22}$/.test(t));
  return {
    async knows(cookie, accountKey) {
      if (tokensOf(cookie).length === 0) return false;
      const k = await keysOf(accountKey);
      return tokensOf(cookie).some((token) => {
        const [nonce, signature] = token.split('.') as [string, string];
        const expected = Buffer.from(sign(k, accountKey, nonce));
        const given = Buffer.from(signature);
        return expected.length === given.length && timingSafeEqual(expected, given);
      });
    },
    async add(cookie, accountKey) {
      const k = await keysOf(accountKey);
      const nonce = randomBytes(12).toString('base64url');
      return [...tokensOf(cookie), `${nonce}.${sign(k, accountKey, nonce)}`].slice(-MAX_TOKENS).join('~');
    },
    async revokeAll(accountKey) {
      // The next sign-in makes a new one (serverSecret).
      await db.deleteFrom('server_secrets').where('name', '=', accountSecretName(accountKey)).execute();
    },
  };
}
