import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import { eraseAccount } from '../../commands/accounts/erase-account.ts';
import { accountDeletedSchema, accountSettingsSchema, changePasswordSchema, deleteAccountSchema, leaderboardOptOutSchema, marketingPreferenceSchema, personalDataMessages } from '../../contracts/account.ts';
import { AppError } from '../../contracts/errors.ts';
import { createDeviceCookies } from '../../infra/auth/device-cookies.ts';
import { accountErasureDeps, exportPersonalData } from '../../personal-data.ts';
import { fileField, routeDocs } from '../route-docs.ts';
import type { RouteOptions } from '../app.ts';
import { commandMetadata, forgetAccountDevices, requireUser } from '../plugins/session.ts';

// Settings (SPEC.md §2, issue 12): the account's marketing preference, its password, and signing out of every
// device; and the person's data taken back (issue 34): the leaderboard opt-out, Download my data, Delete my account. Through the provider port: the built-in provider keeps accounts here, so these change them here.

const signedOutSchema = z.object({ message: z.string(), signedOutSessions: z.number().int() });

export const accountRoutes: FastifyPluginAsync<RouteOptions> = async (app, { runtime }) => {
  const { accounts, clock, ids } = runtime;
  const { provider, rateLimiter, limits } = accounts;
  const deviceCookies = createDeviceCookies(runtime.database.db);

  const forgetDevices = (userId: string) => forgetAccountDevices(runtime.database.db, deviceCookies, userId);

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
    await throttlePassword(reply, userId);
    const input = changePasswordSchema.parse(request.body);
    await provider.changePassword(userId, input, commandMetadata(request, clock, ids));
    await rateLimiter.reset(`password:user:${userId}`);
    const signedOut = await app.sessions.keepOnlyThisBrowser(request, reply, userId);
    await forgetDevices(userId);
    return { message: 'Your password has been changed. Every other device has been signed out.', signedOutSessions: signedOut };
  });

  /** Guessing the password from a stolen session is throttled like sign-in, on every call that asks for it. */
  async function throttlePassword(reply: FastifyReply, userId: string): Promise<void> {
    const { allowed, retryAfterMs } = await rateLimiter.hit(`password:user:${userId}`, limits.perAccount);
    if (!allowed) {
      reply.header('retry-after', String(Math.ceil(retryAfterMs / 1000)));
      throw new AppError('rate_limited', 'rate_limited', 'Too many attempts. Please wait a few minutes and try again.');
    }
  }

  app.put('/api/account/leaderboard', { schema: routeDocs({ summary: 'Leave the public leaderboard, or come back to it', tags: ['settings'], body: leaderboardOptOutSchema, responses: { 200: accountSettingsSchema }, errors: [400, 401] }, 'PUT') }, async (request) => {
    const userId = requireUser(request);
    const input = leaderboardOptOutSchema.parse(request.body);
    await provider.setLeaderboardOptOut(userId, input.leaderboard_opt_out, commandMetadata(request, clock, ids));
    return provider.accountSettings(userId);
  });

  // Art. 20: everything recorded about the person, as JSON, and their photos, in one zip. Built in memory: a person's
  // events and photos, not a table's.
  app.get('/api/account/export', { schema: routeDocs({ summary: 'Download my data: a zip of everything recorded about me (JSON) and my photos', tags: ['settings'], responses: { 200: fileField('A .zip: my-data.json and photos/') }, errors: [401, 429] }) }, async (request, reply) => {
    const userId = requireUser(request);
    const { allowed, retryAfterMs } = await rateLimiter.hit(`export:user:${userId}`, limits.perAccount);
    if (!allowed) {
      reply.header('retry-after', String(Math.ceil(retryAfterMs / 1000)));
      throw new AppError('rate_limited', 'rate_limited', 'Too many downloads. Please wait a few minutes and try again.');
    }
    const zip = await exportPersonalData(runtime.database, runtime.imageStore, userId, clock.now());
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="card-grader-my-data-${clock.now().toISOString().slice(0, 10)}.zip"`)
      .header('cache-control', 'no-store')
      .send(zip);
  });

  // Art. 17: the password again, then the account and its person's data erased (src/commands/accounts/erase-account.ts),
  // and every session of it ended, sockets closed, device cookies forgotten.
  app.post('/api/account/delete', { schema: routeDocs({ summary: 'Delete my account: the account and its personal data are erased; every session ends', tags: ['settings'], body: deleteAccountSchema, responses: { 200: accountDeletedSchema }, errors: [400, 401, 429] }, 'POST') }, async (request, reply) => {
    const userId = requireUser(request);
    await throttlePassword(reply, userId);
    const input = deleteAccountSchema.parse(request.body);
    await provider.verifyPassword(userId, input.password);
    await rateLimiter.reset(`password:user:${userId}`);
    // Before the erasure: the device cookies are found by the account's email.
    await forgetDevices(userId);
    await eraseAccount({ store: runtime.eventStore, metadata: commandMetadata(request, clock, ids) }, accountErasureDeps(runtime.database, runtime.imageStore), {
      userId,
      by: 'self',
      at: clock.now().toISOString(),
    });
    await app.sessions.signOutEverywhere(request, reply, userId);
    return { message: personalDataMessages.deleted.description };
  });

  app.post('/api/account/sign-out-everywhere', { schema: routeDocs({ summary: 'Sign out of all devices, this one included', tags: ['settings'], responses: { 200: signedOutSchema }, errors: [401] }, 'POST') }, async (request, reply) => {
    const userId = requireUser(request);
    const signedOut = await app.sessions.signOutEverywhere(request, reply, userId);
    await forgetDevices(userId);
    return { message: 'You have been signed out of all devices.', signedOutSessions: signedOut };
  });
};
