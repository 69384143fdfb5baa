import { createHmac, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { CARD_ID_BYTES, cardIdentityKey, type CardIdentity } from '../../domain/cards/index.ts';
import type { Tables } from '../../infra/database/schema.ts';

// Card ids are an HMAC of the card's identity (owner and image hashes) under a server secret: the same
// owner grading the same images gets the same id, and nobody can guess an id from what they know. The secret
// lives in the database, made by whichever process needs it first, so zero set-up works and every API
// process signs alike.

export interface ServerSecretsTable {
  name: string;
  secret: string;
  created_at: Date;
}
export interface ServerSecretsTables {
  server_secrets: ServerSecretsTable;
}

const SECRET_NAME = 'card-id-hmac';

export interface CardIds {
  idFor(identity: CardIdentity): Promise<string>;
}

/** The secret named `name`, created (32 random bytes, base64) if no process has made it yet. */
export async function serverSecret(db: Kysely<Tables>, name: string): Promise<Buffer> {
  await db
    .insertInto('server_secrets')
    .values({ name, secret: randomBytes(32).toString('base64'), created_at: new Date() })
    .onConflict((c) => c.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('server_secrets').select('secret').where('name', '=', name).executeTakeFirstOrThrow();
  return Buffer.from(row.secret, 'base64');
}

export function cardIdFor(secret: Buffer, identity: CardIdentity): string {
  return createHmac('sha256', secret).update(cardIdentityKey(identity)).digest().subarray(0, CARD_ID_BYTES).toString('base64url');
}

/** Loads the secret once, on first use. */
export function createCardIds(db: Kysely<Tables>): CardIds {
  let secret: Promise<Buffer> | undefined;
  return {
    async idFor(identity) {
      secret ??= serverSecret(db, SECRET_NAME).catch((error: unknown) => {
        secret = undefined;
        throw error;
      });
      return cardIdFor(await secret, identity);
    },
  };
}
