import type { FastifyPluginAsync } from 'fastify';
import { changePasswordSchema, marketingPreferenceSchema } from '../../contracts/account.ts';
import { AppError } from '../../contracts/errors.ts';
import type { RouteOptions } from '../app.ts';
import { commandMetadata, requireUser } from '../plugins/session.ts';

// Settings (SPEC.md §2, issue 12): the account's marketing preference, its password, and signing out of every
// device. Through the provider port: the built-in provider keeps accounts here, so these change them here.

export const accountRoutes: FastifyPluginAsync<RouteOptions> = async (app, { runtime }) => {
  const { accounts, clock, ids } = runtime;
  const { provider, rateLimiter, limits } = accounts;

  app.get('/api/account/settings', async (request) => provider.accountSettings(requireUser(request)));

  app.put('/api/account/marketing', async (request) => {
    const userId = requireUser(request);
    const input = marketingPreferenceSchema.parse(request.body);
    await provider.setMarketingPreference(userId, input.is_marketing_notifications_enabled, commandMetadata(request, clock, ids));
    return provider.accountSettings(userId);
  });

  // A new password ends every other session: whoever knew the old one is signed out everywhere but here.
  app.post('/api/account/password', async (request, reply) => {
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
    return { message: 'Your password has been changed. Every other device has been signed out.', signedOutSessions: signedOut };
  });

  app.post('/api/account/sign-out-everywhere', async (request, reply) => {
    const userId = requireUser(request);
    const signedOut = await app.sessions.signOutEverywhere(request, reply, userId);
    return { message: 'You have been signed out of all devices.', signedOutSessions: signedOut };
  });
};
