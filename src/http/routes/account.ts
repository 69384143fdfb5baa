import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { accountSettingsSchema, changePasswordSchema, marketingPreferenceSchema } from '../../contracts/account.ts';
import { AppError } from '../../contracts/errors.ts';
import { accountKeyOf, createDeviceCookies } from '../../infra/auth/device-cookies.ts';
import { findUserById } from '../../projections/users/queries.ts';
import { routeDocs } from '../route-docs.ts';
import type { RouteOptions } from '../app.ts';
import { commandMetadata, requireUser } from '../plugins/session.ts';

// Settings (SPEC.md §2, issue 12): the account's marketing preference, its password, and signing out of every
// device. Through the provider port: the built-in provider keeps accounts here, so these change them here.

const signedOutSchema = z.object({ message: z.string(), signedOutSessions: z.number().int() });

export const accountRoutes: FastifyPluginAsync<RouteOptions> = async (app, { runtime }) => {
  const { accounts, clock, ids } = runtime;
  const { provider, rateLimiter, limits } = accounts;
  const deviceCookies = createDeviceCookies(runtime.database.db);

  /**
   * The account's device cookies stop exempting their browsers from the sign-in throttle: whoever the owner is
   * locking out (a new password, or signed out everywhere) no longer guesses unthrottled from a browser that once
   * signed in.
   */
  async function forgetDevices(userId: string): Promise<void> {
    const user = await findUserById(runtime.database.db, userId);
    if (user) await deviceCookies.revokeAll(accountKeyOf(user.email));
  }

  app.get('/api/account/settings', { schema: routeDocs({ summary: 'The account as Settings shows it', tags: ['settings'], responses: { 200: accountSettingsSchema }, errors: [401] }) }, async (request) => provider.accountSettings(requireUser(request)));

  app.put('/api/account/marketing', { schema: routeDocs({ summary: 'Change the marketing preference (built-in provider)', tags: ['settings'], body: marketingPreferenceSchema, responses: { 200: accountSettingsSchema }, errors: [400, 401] }, 'PUT') }, async (request) => {
    const userId = requireUser(request);
    const input = marketingPreferenceSchema.parse(request.body);
    await provider.setMarketingPreference(userId, input.is_marketing_notifications_enabled, commandMetadata(request, clock, ids));
    return provider.accountSettings(userId);
  });

  // A new password ends every other session: whoever knew the old one is signed out everywhere but here.
  app.post('/api/account/password', { schema: routeDocs({ summary: 'Change the password; every other session is signed out', tags: ['settings'], body: changePasswordSchema, responses: { 200: signedOutSchema }, errors: [400, 401, 429] }, 'POST') }, async (request, reply) => {
    const userId = requireUser(request);
    // Guessing the current password from a stolen session is throttled like sign-in.
    const { allowed, retryAfterMs } = await rateLimiter.hit(`password:user:${userId}`, limits.perAccount);
    if (!allowed) {
      reply.header('retry-after', String(Math.ceil(retryAfterMs / 1000)));
      throw new AppError('rate_limited', 'rate_limited', 'Too many attempts. Please wait a few minutes and try again.');
    }
    const input = changePasswordSchema.parse(request.body);
    await provider.changePassword(userId, input, commandMetadata(request, clock, ids));
    await rateLimiter.reset(`password:user:${userId}`);
    const signedOut = await app.sessions.keepOnlyThisBrowser(request, reply, userId);
    await forgetDevices(userId);
    return { message: 'Your password has been changed. Every other device has been signed out.', signedOutSessions: signedOut };
  });

  app.post('/api/account/sign-out-everywhere', { schema: routeDocs({ summary: 'Sign out of all devices, this one included', tags: ['settings'], responses: { 200: signedOutSchema }, errors: [401] }, 'POST') }, async (request, reply) => {
    const userId = requireUser(request);
    const signedOut = await app.sessions.signOutEverywhere(request, reply, userId);
    await forgetDevices(userId);
    return { message: 'You have been signed out of all devices.', signedOutSessions: signedOut };
  });
};
