import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import { CARD_ID_BYTES, cardIdentityKey, type CardIdentity } from '../../domain/cards/index.ts';
import type { Tables } from '../../infra/database/schema.ts';
import { serverSecret } from '../../infra/database/server-secrets.ts';

// Card ids are an HMAC of the card's identity (owner and image hashes) under a server secret: the same
// owner grading the same images gets the same id, and nobody can guess an id from what they know. The secret
// is one of the server's secrets (src/infra/database/server-secrets.ts).

const SECRET_NAME = 'card-id-hmac';

export interface CardIds {
  idFor(identity: CardIdentity): Promise<string>;
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
