import type { WebSocket } from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { SessionRepository } from '../../infra/auth/session-repository.ts';

// The WebSockets open on this process, by session, user and client address (issue 34): a socket lives no longer than
// its session. Sign-out, sign-out-everywhere and a password change close their sockets here at once; a session ended
// by another API process (or expired) is found by a look at the database every SESSION_CHECK_MS, so a revoked socket
// is closed within a second wherever it was revoked. Sockets are capped per user and per address, and one whose
// client stops answering pings for an idle timeout is cut.

/** How often the sessions of open signed-in sockets are looked up. */
const SESSION_CHECK_MS = 500;
/** Close codes (4000-4999 are the application's). */
export const SESSION_ENDED = 4401;
export const TOO_MANY_SOCKETS = 4429;

export interface LiveSocketsOptions {
  sessions: Pick<SessionRepository, 'liveAmong'>;
  perUser: number;
  perAddress: number;
  idleTimeoutMs: number;
}

interface LiveSocket {
  socket: WebSocket;
  sessionId: string;
  userId: string | null;
  address: string;
  answeredPing: boolean;
}

export interface LiveSockets {
  /** Counts the request's socket in, or closes it (4429) when its user or address has too many; false then. */
  admit(request: FastifyRequest, socket: WebSocket): boolean;
  /** Closes the sockets of these sessions (4401). */
  closeSessions(sessionIds: readonly string[]): void;
  /** Closes every socket of the user (4401). */
  closeUser(userId: string): void;
  /** Open sockets (tests and metrics). */
  count(): number;
}

declare module 'fastify' {
  interface FastifyInstance {
    liveSockets: LiveSockets;
  }
}

export const liveSocketsPlugin = fp(
  async (app: FastifyInstance, options: LiveSocketsOptions) => {
    const open = new Set<LiveSocket>();
    const countWhere = (match: (live: LiveSocket) => boolean) => [...open].filter(match).length;
    const end = (live: LiveSocket, code: number, reason: string) => {
      open.delete(live);
      live.socket.close(code, reason);
      // A client that does not answer the close handshake is cut a second later.
      setTimeout(() => live.socket.terminate(), 1_000).unref();
    };

    const sessionCheck = setInterval(() => {
      const signedIn = [...open].filter((live) => live.userId !== null);
      if (signedIn.length === 0) return;
      options.sessions
        .liveAmong([...new Set(signedIn.map((live) => live.sessionId))])
        .then((live) => {
          for (const socket of signedIn) if (!live.has(socket.sessionId) && open.has(socket)) end(socket, SESSION_ENDED, 'Session ended');
        })
        .catch((error: unknown) => app.log.warn({ err: error }, 'the sessions of open sockets were not checked'));
    }, SESSION_CHECK_MS);
    sessionCheck.unref();

    // Idle: a ping every half timeout; a socket that did not answer the last one is cut (browsers answer by themselves).
    const heartbeat = setInterval(() => {
      for (const live of open) {
        if (!live.answeredPing) {
          open.delete(live);
          live.socket.terminate();
          continue;
        }
        live.answeredPing = false;
        live.socket.ping();
      }
    }, options.idleTimeoutMs / 2);
    heartbeat.unref();
    app.addHook('onClose', async () => {
      clearInterval(sessionCheck);
      clearInterval(heartbeat);
    });

    app.decorate('liveSockets', {
      admit(request, socket) {
        const { id: sessionId, userId } = request.session;
        const address = request.ip;
        const overCap = (userId !== null && countWhere((l) => l.userId === userId) >= options.perUser) || countWhere((l) => l.address === address) >= options.perAddress;
        if (overCap) {
          socket.close(TOO_MANY_SOCKETS, 'Too many open sockets');
          return false;
        }
        const live: LiveSocket = { socket, sessionId, userId, address, answeredPing: true };
        open.add(live);
        socket.on('pong', () => (live.answeredPing = true));
        socket.on('message', () => (live.answeredPing = true));
        socket.on('close', () => open.delete(live));
        return true;
      },
      closeSessions(sessionIds) {
        for (const live of open) if (sessionIds.includes(live.sessionId)) end(live, SESSION_ENDED, 'Session ended');
      },
      closeUser(userId) {
        for (const live of open) if (live.userId === userId) end(live, SESSION_ENDED, 'Session ended');
      },
      count: () => open.size,
    } satisfies LiveSockets);
  },
  { name: 'live-sockets' },
);
