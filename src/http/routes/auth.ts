import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { claimGuestSession } from '../../commands/accounts/claim-guest-session.ts';
import { guestDataClaimers } from '../../commands/accounts/guest-data-claimers.ts';
import { recordRefusedSignIn } from '../../commands/accounts/record-login.ts';
import { loginSchema, registerSchema, sessionUserSchema, userSchema, providerProfileSchema } from '../../contracts/auth.ts';
import { AppError } from '../../contracts/errors.ts';
import { createAddressHasher } from '../../infra/auth/address-hash.ts';
import { accountKeyOf, createDeviceCookies, DEVICE_COOKIE } from '../../infra/auth/device-cookies.ts';
import { serverSecret } from '../../infra/database/server-secrets.ts';
import type { RateLimit } from '../../infra/auth/rate-limiter.ts';
import { findUserByEmail, findUserById, userView } from '../../projections/users/queries.ts';
import type { RouteOptions } from '../app.ts';
import { messageResponseSchema } from '../../contracts/cards.ts';
import { routeDocs } from '../route-docs.ts';
import { commandMetadata, isStoredSession, requireUser } from '../plugins/session.ts';

// Accounts through the provider (SPEC.md §7): register, login, logout, current user, provider profile.

/** Each failed sign-in to an account from an unknown browser makes the next answer this much slower, up to the cap. */
const SIGN_IN_DELAY_STEP_MS = 200;
const SIGN_IN_DELAY_MAX_MS = 2_000;
/** How long a browser is remembered as one that signed in to an account. */
const DEVICE_COOKIE_DAYS = 180;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const RATE_LIMITED_MESSAGE = 'Too many attempts. Please wait a few minutes and try again.';

/** Rate-limit keys never hold an address in clear (Redis may be shared). */
const accountKey = accountKeyOf;

export const authRoutes: FastifyPluginAsync<RouteOptions> = async (app, { runtime }) => {
  const { accounts } = runtime;
  const { provider, rateLimiter, limits } = accounts;
  const { eventStore: store, database, clock, ids } = runtime;

  const deviceCookies = createDeviceCookies(database.db);
  const { ADDRESS_HASH_SECRET } = runtime.config;
  let addressSecret: Promise<Buffer> | undefined;
  const hashAddress = createAddressHasher(() => (addressSecret ??= ADDRESS_HASH_SECRET ? Promise.resolve(Buffer.from(ADDRESS_HASH_SECRET)) : serverSecret(database.db, 'address-hash')));

  /** Counts a hit; past the rule's limit, a 429 with Retry-After. Returns the hits so far in the window. */
  async function limit(reply: FastifyReply, key: string, rule: RateLimit): Promise<number> {
    const { allowed, count, retryAfterMs } = await rateLimiter.hit(key, rule);
    if (allowed) return count;
    reply.header('retry-after', String(Math.ceil(retryAfterMs / 1000)));
    throw new AppError('rate_limited', 'rate_limited', RATE_LIMITED_MESSAGE);
  }

  /** A refused sign-in to an existing account goes on its stream (the audit trail); unknown emails have none. */
  async function auditRefusal(request: FastifyRequest, email: string, reason: 'wrong_password' | 'throttled', retryAfterSeconds: number | null): Promise<void> {
    const row = await findUserByEmail(database.db, email);
    if (!row) return;
    const addressHash = await hashAddress(request.ip, clock.now());
    await recordRefusedSignIn({ store, metadata: commandMetadata(request, clock, ids) }, { userId: row.id, at: clock.now().toISOString(), reason, addressHash, retryAfterSeconds });
  }

  /** Gives the browser a token saying it has signed in to this account (see device-cookies.ts). */
  async function rememberDevice(request: FastifyRequest, reply: FastifyReply, account: string): Promise<void> {
    reply.setCookie(DEVICE_COOKIE, await deviceCookies.add(request.cookies[DEVICE_COOKIE], account), {
      path: '/api/agscard',
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
      maxAge: DEVICE_COOKIE_DAYS * 86_400,
    });
  }

  /** Rotates the session to the user's, and moves what the browser's guest session owned to the account. */
  async function signIn(request: FastifyRequest, reply: FastifyReply, userId: string): Promise<void> {
    const metadata = commandMetadata(request, clock, ids);
    // A browser that never wrote anything has no stored guest session, and nothing to move.
    const guestId = request.session.userId === null && isStoredSession(request) ? request.session.guestId : null;
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

  app.post('/api/agscard/register', { schema: routeDocs({ summary: 'Create an account and sign in (built-in provider)', tags: ['accounts'], body: registerSchema, responses: { 201: z.object({ user: userSchema }) }, errors: [400, 409, 429] }, 'POST'), onRequest: limitAddress('register') }, async (request, reply) => {
    const input = registerSchema.parse(request.body);
    await limit(reply, `register:account:${accountKey(input.email)}`, limits.perAccount);
    const user = await provider.register(input, commandMetadata(request, clock, ids));
    await signIn(request, reply, user.id);
    await rememberDevice(request, reply, accountKey(input.email));
    return reply.status(201).send({ user });
  });

  app.post('/api/agscard/login', { schema: routeDocs({ summary: 'Sign in', tags: ['accounts'], body: loginSchema, responses: { 200: z.object({ user: userSchema }) }, errors: [400, 401, 429] }, 'POST'), onRequest: limitAddress('login') }, async (request, reply) => {
    const input = loginSchema.parse(request.body);
    const account = accountKey(input.email);
    // A browser that signed in to this account before is exempt from its throttle: guessing from elsewhere never
    // locks the owner out. Others: every attempt counts, each a little slower, 429 past the limit.
    const knownDevice = await deviceCookies.knows(request.cookies[DEVICE_COOKIE], account);
    const attemptsKey = `login:account:${account}`;
    if (!knownDevice) {
      const count = await limit(reply, attemptsKey, limits.perAccount).catch(async (error: unknown) => {
        await auditRefusal(request, input.email, 'throttled', Number(reply.getHeader('retry-after')) || null);
        throw error;
      });
      if (count > 1) await sleep(Math.min(SIGN_IN_DELAY_STEP_MS * (count - 1), SIGN_IN_DELAY_MAX_MS));
    }
    const user = await provider.login(input, commandMetadata(request, clock, ids)).catch(async (error: unknown) => {
      if (error instanceof AppError && error.code === 'invalid_credentials') await auditRefusal(request, input.email, 'wrong_password', null);
      throw error;
    });
    if (!knownDevice) await rateLimiter.reset(attemptsKey);
    await signIn(request, reply, user.id);
    await rememberDevice(request, reply, account);
    return { user };
  });

  app.post('/api/logout', { schema: routeDocs({ summary: 'Sign out (a guest keeps their session)', tags: ['accounts'], responses: { 200: messageResponseSchema } }, 'POST') }, async (request, reply) => {
    // A guest keeps their session: ending it would orphan what they made. A cookie-less visitor gets none.
    if (request.session.userId) await app.sessions.signOut(request, reply);
    else app.sessions.noNewGuestSession(request);
    return { message: 'Logged out' };
  });

  app.get('/api/user', { schema: routeDocs({ summary: 'The signed-in user', tags: ['accounts'], responses: { 200: userSchema }, errors: [401] }, 'GET') }, async (request) => {
    const row = await findUserById(database.db, requireUser(request));
    if (!row) throw new AppError('unauthorized', 'unauthorized', 'Not signed in');
    return userView(row);
  });

  // The web app asks this rather than /api/user: a guest is an answer ({ user: null }), not a 401 that every
  // guest page would log in the browser's console. /api/user stays as SPEC.md §7 has it.
  app.get('/api/session', { schema: routeDocs({ summary: 'The signed-in user, or null for a guest (never 401)', tags: ['accounts'], responses: { 200: sessionUserSchema } }, 'GET') }, async (request) => {
    const row = request.session.userId ? await findUserById(database.db, request.session.userId) : undefined;
    return { user: row ? userView(row) : null };
  });

  app.get('/api/agscard/profile', { schema: routeDocs({ summary: "The provider's profile of the signed-in user", tags: ['accounts'], responses: { 200: providerProfileSchema }, errors: [401] }, 'GET') }, async (request) => provider.profile(requireUser(request)));
};
