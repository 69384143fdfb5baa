import type { Clock, IdGenerator } from '../../infra/clock/clock.ts';
import type { SessionRepository } from '../../infra/auth/session-repository.ts';
import type { EventStore } from '../../infra/event-store/types.ts';
import { guestCardsExpirer } from '../cards/expire-guest-cards.ts';
import type { GuestDataClaimContext } from './guest-data-claimers.ts';

// The clean-up job of DESIGN.md §6 (issue 15): a guest session lives 7 days; when it has expired, what the guest made
// and never claimed leaves the read models (by events, so a rebuild agrees) and the session row goes. Expired
// sessions of accounts go too. Every API process runs it now and then; run twice at once it does the same thing
// once (the deciders append nothing the second time).

/** Removes one feature's things still owned by `guest:<guestId>`; idempotent like the claimers. */
export interface GuestDataExpirer {
  name: string;
  expire(input: { guestId: string; expiredAt: string }, context: GuestDataClaimContext): Promise<void>;
}

// THE registry, beside the claimers': every feature whose things a guest can own adds its expirer here.
// (Feedback a guest sent stays: it is addressed to the team, not kept for the guest.)
export const guestDataExpirers: GuestDataExpirer[] = [guestCardsExpirer];

export interface ExpireGuestDataDeps {
  db: GuestDataClaimContext['db'];
  store: EventStore;
  sessions: SessionRepository;
  clock: Clock;
  ids: IdGenerator;
  expirers?: readonly GuestDataExpirer[];
}

export interface ExpireGuestDataResult {
  guests: number;
  sessionsDeleted: number;
  failures: { guestId: string; expirer: string; error: unknown }[];
}

const BATCH = 200;

export async function expireGuestData(deps: ExpireGuestDataDeps, options: { maxGuests?: number } = {}): Promise<ExpireGuestDataResult> {
  const now = deps.clock.now();
  const result: ExpireGuestDataResult = { guests: 0, sessionsDeleted: 0, failures: [] };
  const maxGuests = options.maxGuests ?? 10_000;
  const skipped = new Set<string>();
  while (result.guests < maxGuests) {
    const expired = (await deps.sessions.expiredGuests(now, BATCH + skipped.size)).filter((s) => !skipped.has(s.id));
    if (expired.length === 0) break;
    const done: string[] = [];
    for (const { id, guestId } of expired) {
      const context = { db: deps.db, store: deps.store, metadata: { actor: { kind: 'system' as const, id: 'guest-data-expiry' }, commandId: deps.ids.uuid(), timestamp: now.toISOString() } };
      let failed = false;
      for (const expirer of deps.expirers ?? guestDataExpirers) {
        try {
          await expirer.expire({ guestId, expiredAt: now.toISOString() }, context);
        } catch (error) {
          failed = true;
          result.failures.push({ guestId, expirer: expirer.name, error });
        }
      }
      // A guest whose things could not all be removed keeps its row, so the next run tries again.
      if (failed) skipped.add(id);
      else done.push(id);
      result.guests++;
    }
    await deps.sessions.deleteSessions(done);
    result.sessionsDeleted += done.length;
    if (expired.length < BATCH) break;
  }
  // Accounts' expired sessions (and revoked ones once expired) serve nobody.
  const expiredUsers = await deps.db.deleteFrom('sessions').where('expires_at', '<', now).where('user_id', 'is not', null).executeTakeFirst();
  result.sessionsDeleted += Number(expiredUsers.numDeletedRows);
  return result;
}
