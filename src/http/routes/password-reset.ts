import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { issuePasswordReset, passwordResetStatus } from '../../commands/accounts/password-reset.ts';
import { AppError } from '../../contracts/errors.ts';
import { messageResponseSchema } from '../../contracts/cards.ts';
import {
  passwordResetCheckResponseSchema,
  passwordResetCheckSchema,
  passwordResetConfirmSchema,
  passwordResetMessages,
  passwordResetRequestSchema,
} from '../../contracts/password-reset.ts';
import { accountKeyOf, createDeviceCookies } from '../../infra/auth/device-cookies.ts';
import type { RateLimit } from '../../infra/auth/rate-limiter.ts';
import type { EventMetadata } from '../../infra/event-store/types.ts';
import { findUserByEmail, findUserById } from '../../projections/users/queries.ts';
import type { RouteOptions } from '../app.ts';
import { routeDocs } from '../route-docs.ts';
import { forgetAccountDevices } from '../plugins/session.ts';
import { RATE_LIMITED_MESSAGE } from './auth.ts';

// "Forgot password?" (issue 35): a link by email, used once within an hour, then every session of the account ends.
// The request's answer says nothing about whether the address has an account: the same status, the same message,
// and the same time, because the answer goes before anything about the address is looked up or mailed.

export const passwordResetRoutes: FastifyPluginAsync<RouteOptions> = async (app, { runtime }) => {
  const { accounts, database, eventStore: store, clock, ids, mailer } = runtime;
  const { provider, rateLimiter, limits } = accounts;
  const deviceCookies = createDeviceCookies(database.db);
  /** Mails on their way: the server's shutdown waits for them. */
  const sending = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...sending]);
  });

  async function limit(reply: FastifyReply, key: string, rule: RateLimit): Promise<void> {
    const { allowed, retryAfterMs } = await rateLimiter.hit(key, rule);
    if (allowed) return;
    reply.header('retry-after', String(Math.ceil(retryAfterMs / 1000)));
    throw new AppError('rate_limited', 'rate_limited', RATE_LIMITED_MESSAGE);
  }

  /** Counted before the body is read, as sign-in's are. */
  const limitAddress = (action: string) => async (request: FastifyRequest, reply: FastifyReply) => limit(reply, `${action}:address:${request.ip}`, limits.perAddress);

  const systemMetadata = (): EventMetadata => ({ actor: { kind: 'system', id: 'password-reset' }, commandId: ids.uuid(), timestamp: clock.now().toISOString() });

  /** After the answer: an account with this address gets a link; an unknown address gets nothing. */
  async function mailLink(email: string, origin: string): Promise<void> {
    const user = await findUserByEmail(database.db, email);
    if (!user) return;
    const { token, expiresAt } = await issuePasswordReset({ store, metadata: systemMetadata() }, { userId: user.id, at: clock.now() });
    const link = `${origin}/reset-password?token=${token}`;
    await mailer.send({
      to: user.email,
      subject: 'Reset your Card Grader password',
      text: [
        'Someone (we hope you) asked to reset the password of your Card Grader account.',
        '',
        'Choose a new password here:',
        link,
        '',
        `The link works once, within an hour (until ${expiresAt.slice(11, 16)} UTC). Once you've chosen a new password, every device signed in to your account is signed out.`,
        '',
        "If you didn't ask, ignore this email: your password stays as it is.",
      ].join('\n'),
    });
  }

  app.post(
    '/api/password-reset',
    {
      schema: routeDocs({ summary: 'Forgot password: email a single-use link that works for an hour (the same answer for any address)', tags: ['accounts'], body: passwordResetRequestSchema, responses: { 202: messageResponseSchema }, errors: [400, 429] }, 'POST'),
      onRequest: limitAddress('password-reset'),
    },
    async (request, reply) => {
      const { email } = passwordResetRequestSchema.parse(request.body);
      await limit(reply, `password-reset:account:${accountKeyOf(email)}`, limits.perAccount);
      // A visitor asking for a link makes nothing of theirs: no guest session for it.
      app.sessions.noNewGuestSession(request);
      // The origin the request came to: only an allowed host gets this far (plugins/allowed-hosts.ts).
      const origin = `${request.protocol}://${request.host}`;
      const job = mailLink(email, origin)
        .catch((error: unknown) => request.log.error({ err: error }, 'password reset link not sent'))
        .finally(() => sending.delete(job));
      sending.add(job);
      return reply.status(202).send({ message: passwordResetMessages.requested });
    },
  );

  app.post(
    '/api/password-reset/check',
    {
      schema: routeDocs({ summary: 'Whether a reset link still works (valid, expired, used or invalid)', tags: ['accounts'], body: passwordResetCheckSchema, responses: { 200: passwordResetCheckResponseSchema }, errors: [400, 429] }, 'POST'),
      onRequest: limitAddress('password-reset-check'),
    },
    async (request) => {
      const { token } = passwordResetCheckSchema.parse(request.body);
      app.sessions.noNewGuestSession(request);
      return { status: await passwordResetStatus(store, token, clock.now().toISOString()) };
    },
  );

  app.post(
    '/api/password-reset/confirm',
    {
      schema: routeDocs({ summary: 'Choose a new password through a reset link; every session of the account is signed out', tags: ['accounts'], body: passwordResetConfirmSchema, responses: { 200: messageResponseSchema }, errors: [400, 429] }, 'POST'),
      onRequest: limitAddress('password-reset-confirm'),
    },
    async (request) => {
      const input = passwordResetConfirmSchema.parse(request.body);
      app.sessions.noNewGuestSession(request);
      const { userId } = await provider.resetPassword(input.token, input.password, systemMetadata());
      // As after a password change in Settings, and more: nobody stays signed in with the old password, this browser
      // included (it may not be the owner's), and no browser that once signed in guesses unthrottled.
      await app.sessions.revokeEverySession(userId);
      await forgetAccountDevices(database.db, deviceCookies, userId);
      // Whoever chose the password holds the mailbox: the sign-in throttle that guessing may have run up is lifted.
      const user = await findUserById(database.db, userId);
      if (user) await rateLimiter.reset(`login:account:${accountKeyOf(user.email)}`);
      return { message: passwordResetMessages.done };
    },
  );
};
