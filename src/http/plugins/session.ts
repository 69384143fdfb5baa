import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../contracts/errors.ts';
import { createSessionRepository, type NewSession, type Session } from '../../infra/auth/session-repository.ts';
import type { Clock, IdGenerator } from '../../infra/clock/clock.ts';
import type { EventMetadata } from '../../infra/event-store/types.ts';
import type { RouteOptions } from '../app.ts';

// Server-side sessions in an HttpOnly, SameSite=Lax cookie (DESIGN.md §6). A visitor without a
// live session gets a guest session at once, so what a guest makes has an owner from the start.

export const SESSION_COOKIE = 'sid';
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

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
}

declare module 'fastify' {
  interface FastifyRequest {
    session: RequestSession;
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

    // Expired and revoked-then-expired rows serve nobody; every API process sweeps now and then (harmless twice).
    const sweep = setInterval(() => {
      sessions.deleteExpired(runtime.clock.now()).catch((error: unknown) => app.log.warn({ err: error }, 'expired sessions not deleted'));
    }, SWEEP_INTERVAL_MS);
    sweep.unref();
    app.addHook('onClose', async () => clearInterval(sweep));

    function setCookie(request: FastifyRequest, reply: FastifyReply, created: NewSession): void {
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
    app.decorate('sessions', {
      async signIn(request, reply, userId) {
        const previous = request.session;
        setCookie(request, reply, await sessions.create(userId));
        await sessions.revoke(previous.id);
      },
      async signOut(request, reply) {
        await sessions.revoke(request.session.id);
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
      },
      async keepOnlyThisBrowser(request, reply, userId) {
        setCookie(request, reply, await sessions.create(userId));
        return sessions.revokeUserSessions(userId, request.session.id);
      },
      async signOutEverywhere(request, reply, userId) {
        const revoked = await sessions.revokeUserSessions(userId);
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
        return revoked;
      },
    } satisfies SessionControl);

    app.addHook('onRequest', async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      const found = token ? await sessions.find(token) : null;
      if (found) request.session = { id: found.id, userId: found.userId, guestId: found.guestId };
      else setCookie(request, reply, await sessions.create(null));
    });
  },
  { name: 'session', dependencies: ['@fastify/cookie'] },
);

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
