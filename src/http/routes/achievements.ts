import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { markAchievementShown } from '../../commands/achievements/mark-achievement-shown.ts';
import { achievementNotFound } from '../../domain/achievements/index.ts';
import { achievementProgressOf, achievementsOf } from '../../projections/achievements/queries.ts';
import type { RouteOptions } from '../app.ts';
import { achievementProgressSchema, achievementSchema, messageResponseSchema } from '../../contracts/cards.ts';
import { routeDocs } from '../route-docs.ts';
import { commandMetadata, requireUser } from '../plugins/session.ts';

// The signed-in user's achievements (SPEC.md §6: the achievements fetch needs sign-in) and their notifications.

const achievementIdSchema = z.coerce.number().int().positive().max(1_000_000);

export const achievementRoutes: FastifyPluginAsync<RouteOptions> = async (app, { runtime }) => {
  const { database, eventStore: store, clock, ids } = runtime;

  app.get('/api/achievements', { schema: routeDocs({ summary: "The signed-in user's achievements", tags: ['achievements'], responses: { 200: z.array(achievementSchema) }, errors: [401] }, 'GET') }, async (request) => achievementsOf(database.db, requireUser(request)));

  // The achievements page: earned and locked badges with progress (issue 35), from the same numbers that earn them.
  app.get('/api/achievements/progress', { schema: routeDocs({ summary: "Every achievement, earned or locked, with the signed-in user's progress", tags: ['achievements'], responses: { 200: z.array(achievementProgressSchema) }, errors: [401] }, 'GET') }, async (request) => achievementProgressOf(database.db, requireUser(request)));

  app.post('/api/mark-achievement-shown/:achievementId', { schema: routeDocs({ summary: "Mark an achievement's notification shown", tags: ['achievements'], params: z.object({ achievementId: z.string() }), responses: { 200: messageResponseSchema }, errors: [401, 404] }, 'POST') }, async (request) => {
    const userId = requireUser(request);
    const parsed = achievementIdSchema.safeParse((request.params as { achievementId?: unknown }).achievementId);
    if (!parsed.success) throw achievementNotFound();
    await markAchievementShown(
      { store, db: database.db, metadata: commandMetadata(request, clock, ids) },
      { userId, achievementId: parsed.data },
    );
    return { message: 'Achievement marked as shown' };
  });
};
