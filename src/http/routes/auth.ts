import { createHash } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { claimGuestSession } from '../../commands/accounts/claim-guest-session.ts';
import { guestDataClaimers } from '../../commands/accounts/guest-data-claimers.ts';
import { loginSchema, registerSchema } from '../../contracts/auth.ts';
import { AppError } from '../../contracts/errors.ts';
import { normalizeEmail } from '../../domain/accounts/identity.ts';
import type { RateLimit } from '../../infra/auth/rate-limiter.ts';
import { findUserById, userView } from '../../projections/users/queries.ts';
import type { RouteOptions } from '../app.ts';
import { commandMetadata, requireUser } from '../plugins/session.ts';

// Accounts through the provider (SPEC.md §7): register, login, logout, current user, provider profile.

export const RATE_LIMITED_MESSAGE = 'Too many attempts. Please wait a few minutes and try again.';

/** Rate-limit keys never hold an address in clear (Redis may be shared). */
const accountKey = (email: string) => createHash('sha256').update(normalizeEmail(email)).digest('hex');

export const authRoutes: FastifyPluginAsync<RouteOptions> = async (app, { runtime }) => {
  const { accounts } = runtime;
  const { provider, rateLimiter, limits } = accounts;
  const { eventStore: store, database, clock, ids } = runtime;

  async function limit(reply: FastifyReply, key: string, rule: RateLimit): Promise<void> {
    const { allowed, retryAfterMs } = await rateLimiter.hit(key, rule);
    if (allowed) return;
    reply.header('retry-after', String(Math.ceil(retryAfterMs / 1000)));
    throw new AppError('rate_limited', 'rate_limited', RATE_LIMITED_MESSAGE);
  }

  /** Rotates the session to the user's, and moves what the browser's guest session owned to the account. */
  async function signIn(request: FastifyRequest, reply: FastifyReply, userId: string): Promise<void> {
    const metadata = commandMetadata(request, clock, ids);
    const guestId = request.session.userId === null ? request.session.guestId : null;
    await app.sessions.signIn(request, reply, userId);
    if (!guestId) return;
    const { failures } = await claimGuestSession(
      { store, db: database.db, metadata },
      { guestId, userId, claimedAt: metadata.timestamp },
      guestDataClaimers,
    );
    for (const failure of failures) request.log.error({ err: failure.error, claimer: failure.claimer, guestId, userId }, 'guest data not moved to the account');
  }

  /** Counted before the body is read, so malformed bodies count too. */
  const limitAddress = (action: string) => async (request: FastifyRequest, reply: FastifyReply) =>
    limit(reply, `${action}:address:${request.ip}`, limits.perAddress);

  app.post('/api/agscard/register', { onRequest: limitAddress('register') }, async (request, reply) => {
    const input = registerSchema.parse(request.body);
    await limit(reply, `register:account:${accountKey(input.email)}`, limits.perAccount);
    const user = await provider.register(input, commandMetadata(request, clock, ids));
    await signIn(request, reply, user.id);
    return reply.status(201).send({ user });
  });

  app.post('/api/agscard/login', { onRequest: limitAddress('login') }, async (request, reply) => {
    const input = loginSchema.parse(request.body);
    // Counts every attempt on the account, forgotten at the first right password.
    const attemptsKey = `login:account:${accountKey(input.email)}`;
    await limit(reply, attemptsKey, limits.perAccount);
    const user = await provider.login(input, commandMetadata(request, clock, ids));
    await rateLimiter.reset(attemptsKey);
    await signIn(request, reply, user.id);
    return { user };
  });

  app.post('/api/logout', async (request, reply) => {
    // A guest keeps their session: ending it would orphan what they made.
    if (request.session.userId) await app.sessions.signOut(request, reply);
    return { message: 'Logged out' };
  });

  app.get('/api/user', async (request) => {
    const row = await findUserById(database.db, requireUser(request));
    if (!row) throw new AppError('unauthorized', 'unauthorized', 'Not signed in');
    return userView(row);
  });

  app.get('/api/agscard/profile', async (request) => provider.profile(requireUser(request)));
};
