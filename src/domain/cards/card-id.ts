import { z } from 'zod';
import type { Owner } from '../accounts/identity.ts';

// A card's id is derived, not drawn: the same owner grading the same front and back images gets the same
// card, so a retried upload never makes a second one. The command layer turns this key into the id with
// an HMAC under a server secret (the domain holds no keys and does no crypto): ids must be unguessable,
// because a shared link is readable by anyone who has the id (DESIGN.md §6), and owners and sample
// images are not secret.

export interface CardIdentity {
  owner: Owner;
  frontImageHash: string;
  backImageHash: string | null;
}

/** The text the command layer signs. Owners have no spaces and hashes are hex, so no two identities share a key. */
export function cardIdentityKey({ owner, frontImageHash, backImageHash }: CardIdentity): string {
  return ['card-identity-v1', owner, frontImageHash, backImageHash ?? '-'].join(' ');
}

/** 128 bits of the HMAC, base64url: 22 characters. */
export const CARD_ID_BYTES = 16;
export const cardIdSchema = z.string().regex(/^[A-Za-z0-9_-]{22}$/);
