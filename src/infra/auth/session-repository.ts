import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock, IdGenerator } from '../clock/clock.ts';
import type { Tables } from '../database/schema.ts';

/** What a request knows about its caller. */
export interface Session {
  /** sha256 of the cookie's token: safe to log, useless as a credential. */
  id: string;
  userId: string | null;
  guestId: string;
  expiresAt: Date;
}

export interface NewSession {
  /** The cookie value: 256 random bits, base64url. Only ever in the cookie. */
  token: string;
  session: Session;
}

export const GUEST_SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000; // DESIGN.md §6: guest data lives 7 days
export const USER_SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export interface SessionRepository {
  /** A guest session when `userId` is null; stored at once. */
  create(userId: string | null): Promise<NewSession>;
  /** A new session not stored yet (a guest's, until its first write succeeds); `save` stores it. */
  prepare(userId: string | null): NewSession;
  save(created: NewSession): Promise<void>;
  /** The live session for a cookie token; null when unknown, expired or revoked. */
  find(token: string): Promise<Session | null>;
  revoke(sessionId: string): Promise<void>;
  /** Revokes every live session of the user but `exceptSessionId` (none when absent); returns how many. */
  revokeUserSessions(userId: string, exceptSessionId?: string): Promise<number>;
  /** Deletes sessions that expired before `before`; returns how many. */
  deleteExpired(before: Date): Promise<number>;
  /** Guest sessions (never signed in) that expired before `before`, oldest first, at most `limit`. */
  expiredGuests(before: Date, limit: number): Promise<{ id: string; guestId: string }[]>;
  /** Deletes these sessions. */
  deleteSessions(ids: readonly string[]): Promise<void>;
  /** Those of these sessions that are still live (neither revoked nor expired). */
  liveAmong(sessionIds: readonly string[]): Promise<Set<string>>;
}

function sessionIdOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function createSessionRepository(db: Kysely<Tables>, clock: Clock, ids: IdGenerator): SessionRepository {
  function prepare(userId: string | null): NewSession {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(clock.now().getTime() + (userId ? USER_SESSION_TTL_MS : GUEST_SESSION_TTL_MS));
    return { token, session: { id: sessionIdOf(token), userId, guestId: ids.uuid(), expiresAt } };
  }
  async function save({ session }: NewSession): Promise<void> {
    const ttl = session.userId ? USER_SESSION_TTL_MS : GUEST_SESSION_TTL_MS;
    await db
      .insertInto('sessions')
      .values({ id: session.id, user_id: session.userId, guest_id: session.guestId, created_at: new Date(session.expiresAt.getTime() - ttl), expires_at: session.expiresAt })
      .execute();
  }
  return {
    prepare,
    save,
    async create(userId) {
      const created = prepare(userId);
      await save(created);
      return created;
    },
    async find(token) {
      if (!TOKEN_SHAPE.test(token)) return null;
      const row = await db
        .selectFrom('sessions')
        .select(['id', 'user_id', 'guest_id', 'expires_at'])
        .where('id', '=', sessionIdOf(token))
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', clock.now())
        .executeTakeFirst();
      return row ? { id: row.id, userId: row.user_id, guestId: row.guest_id, expiresAt: row.expires_at } : null;
    },
    async revoke(sessionId) {
      await db.updateTable('sessions').set({ revoked_at: clock.now() }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
    },
    async revokeUserSessions(userId, exceptSessionId) {
      let query = db.updateTable('sessions').set({ revoked_at: clock.now() }).where('user_id', '=', userId).where('revoked_at', 'is', null);
      if (exceptSessionId) query = query.where('id', '!=', exceptSessionId);
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    async deleteExpired(before) {
      const result = await db.deleteFrom('sessions').where('expires_at', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async expiredGuests(before, limit) {
      const rows = await db
        .selectFrom('sessions')
        .select(['id', 'guest_id'])
        .where('user_id', 'is', null)
        .where('expires_at', '<', before)
        .orderBy('expires_at')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ id: row.id, guestId: row.guest_id }));
    },
    async liveAmong(sessionIds) {
      if (sessionIds.length === 0) return new Set();
      const rows = await db.selectFrom('sessions').select('id').where('id', 'in', [...sessionIds]).where('revoked_at', 'is', null).where('expires_at', '>', clock.now()).execute();
      return new Set(rows.map((row) => row.id));
    },
    async deleteSessions(sessionIds) {
      if (sessionIds.length > 0) await db.deleteFrom('sessions').where('id', 'in', [...sessionIds]).execute();
    },
  };
}
