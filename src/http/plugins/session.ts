import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../contracts/errors.ts';
import { expireGuestData } from '../../commands/accounts/expire-guest-data.ts';
import { createSessionRepository, type NewSession, type Session } from '../../infra/auth/session-repository.ts';
import type { Clock, IdGenerator } from '../../infra/clock/clock.ts';
import type { EventMetadata } from '../../infra/event-store/types.ts';
import type { RouteOptions } from '../app.ts';
import type { Kysely } from 'kysely';
import { accountKeyOf, type DeviceCookies } from '../../infra/auth/device-cookies.ts';
import type { Tables } from '../../infra/database/schema.ts';
import { findUserById } from '../../projections/users/queries.ts';

// Server-side sessions in an HttpOnly, SameSite=Lax cookie (DESIGN.md §6). A visitor without a live session is a
// guest with a session that is not stored yet: reads (a crawler's, a health checker's) write nothing and set no
// cookie. Its first write that succeeds (a state-changing request answered below 400: grading, saving, feedback)
// stores the session and sets the cookie, so what the guest made has its owner from the start. A refused write
// stores nothing.

export const SESSION_COOKIE = 'sid';
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The not-yet-stored guest session of a cookie-less request. */
const PENDING = Symbol('pending guest session');

/**
 * The account's device cookies stop exempting their browsers from the sign-in throttle: whoever the owner is locking
 * out (a new password, by Settings or a reset link, or signed out everywhere) no longer guesses unthrottled from a
 * browser that once signed in.
 */
export async function forgetAccountDevices(db: Kysely<Tables>, deviceCookies: DeviceCookies, userId: string): Promise<void> {
  const user = await findUserById(db, userId);
  if (user) await deviceCookies.revokeAll(accountKeyOf(user.email));
}

/** The caller of a request: a signed-in user (userId) or a guest (userId null). */
export type RequestSession = Pick<Session, 'id' | 'userId' | 'guestId'>;

/** Starting and ending sessions, for the sign-in and sign-out routes. */
export interface SessionControl {
  /** A new session for `userId` in a new cookie; the request's old session stops working (rotation). */
  signIn(request: FastifyRequest, reply: FastifyReply, userId: string): Promise<void>;
  /** Revokes the request's session on the server and clears the cookie. */
  signOut(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** A fresh session for this browser, and every other session of the user revoked (after a password change). */
  keepOnlyThisBrowser(request: FastifyRequest, reply: FastifyReply, userId: string): Promise<number>;
  /** Every session of the user revoked, this one included, and the cookie cleared. */
  signOutEverywhere(request: FastifyRequest, reply: FastifyReply, userId: string): Promise<number>;
  /**
   * Every session of the user revoked and its sockets closed, from a request that need not be theirs (a password
   * reset through an emailed link: the browser that follows it keeps its own session, a guest's included).
   */
  revokeEverySession(userId: string): Promise<number>;
  /** This write made nothing a guest owns: a cookie-less caller stays without a session. */
  noNewGuestSession(request: FastifyRequest): void;
}

declare module 'fastify' {
  interface FastifyRequest {
    session: RequestSession;
    [PENDING]: NewSession | null;
  }
  interface FastifyInstance {
    sessions: SessionControl;
  }
}

export const sessionPlugin = fp(
  async (app: FastifyInstance, { runtime }: RouteOptions) => {
    const sessions = createSessionRepository(runtime.database.db, runtime.clock, runtime.ids);
    // COOKIE_SECURE: Secure even when the request did not arrive over HTTPS as far as we can tell.
    const alwaysSecure = runtime.config.COOKIE_SECURE;

    // Expired sessions go, and with an expired guest's, what the guest made and never claimed (DESIGN.md §6, by
    // events: commands/accounts/expire-guest-data.ts). Every API process runs it now and then (harmless twice).
    const { database, eventStore, clock, ids } = runtime;
    const sweep = setInterval(() => {
      expireGuestData({ db: database.db, store: eventStore, sessions, clock, ids })
        .then((result) => {
          if (result.guests > 0 || result.sessionsDeleted > 0) app.log.info({ guests: result.guests, sessionsDeleted: result.sessionsDeleted }, 'expired sessions cleaned up');
          for (const failure of result.failures) app.log.warn({ err: failure.error, expirer: failure.expirer }, "an expired guest's data was not removed");
        })
        .catch((error: unknown) => app.log.warn({ err: error }, 'expired sessions not cleaned up'));
    }, SWEEP_INTERVAL_MS);
    sweep.unref();
    app.addHook('onClose', async () => clearInterval(sweep));

    function setCookie(request: FastifyRequest, reply: FastifyReply, created: NewSession): void {
      request[PENDING] = null;
      request.session = { id: created.session.id, userId: created.session.userId, guestId: created.session.guestId };
      reply.setCookie(SESSION_COOKIE, created.token, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: alwaysSecure || request.protocol === 'https',
        expires: created.session.expiresAt,
      });
    }

    app.decorateRequest('session', null as unknown as RequestSession);
    app.decorateRequest(PENDING, null);
    async function revokeEverySession(userId: string): Promise<number> {
      const revoked = await sessions.revokeUserSessions(userId);
      app.liveSockets.closeUser(userId);
      return revoked;
    }
    app.decorate('sessions', {
      // Each way a session ends closes its WebSockets at once on this process (./live-sockets.ts looks after the
      // others within a second).
      async signIn(request, reply, userId) {
        const previous = request.session;
        setCookie(request, reply, await sessions.create(userId));
        await sessions.revoke(previous.id);
        app.liveSockets.closeSessions([previous.id]);
      },
      async signOut(request, reply) {
        await sessions.revoke(request.session.id);
        app.liveSockets.closeSessions([request.session.id]);
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
      },
      async keepOnlyThisBrowser(request, reply, userId) {
        setCookie(request, reply, await sessions.create(userId));
        const revoked = await sessions.revokeUserSessions(userId, request.session.id);
        app.liveSockets.closeUser(userId);
        return revoked;
      },
      async signOutEverywhere(request, reply, userId) {
        const revoked = await revokeEverySession(userId);
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
        return revoked;
      },
      revokeEverySession,
      noNewGuestSession(request) {
        request[PENDING] = null;
      },
    } satisfies SessionControl);

    app.addHook('onRequest', async (request) => {
      const token = request.cookies[SESSION_COOKIE];
      const found = token ? await sessions.find(token) : null;
      if (found) {
        request.session = { id: found.id, userId: found.userId, guestId: found.guestId };
        return;
      }
      const pending = sessions.prepare(null);
      request[PENDING] = pending;
      request.session = { id: pending.session.id, userId: null, guestId: pending.session.guestId };
    });

    // The guest's first write that went through: its session is stored now, and the browser gets the cookie.
    app.addHook('onSend', async (request, reply, payload) => {
      const pending = request[PENDING];
      if (!pending || !STATE_CHANGING.has(request.method) || reply.statusCode >= 400) return payload;
      await sessions.save(pending);
      setCookie(request, reply, pending);
      return payload;
    });
  },
  { name: 'session', dependencies: ['@fastify/cookie', 'live-sockets'] },
);

/** False for a cookie-less guest whose session is not stored (yet): it owns nothing. */
export function isStoredSession(request: FastifyRequest): boolean {
  return request[PENDING] === null;
}

/** The signed-in user's id; refuses a guest with 401 `unauthorized`. */
export function requireUser(request: FastifyRequest): string {
  const { userId } = request.session;
  if (!userId) throw new AppError('unauthorized', 'unauthorized', 'Not signed in');
  return userId;
}

/** The metadata every event of this request's commands carries (DESIGN.md §3). */
export function commandMetadata(request: FastifyRequest, clock: Clock, ids: IdGenerator): EventMetadata {
  const { userId, guestId } = request.session;
  return {
    actor: userId ? { kind: 'user', id: userId } : { kind: 'guest', id: guestId },
    commandId: ids.uuid(),
    timestamp: clock.now().toISOString(),
  };
}
