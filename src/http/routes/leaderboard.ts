import type { FastifyPluginAsync } from 'fastify';
import { leaderboardEntrySchema, leaderboardQuerySchema } from '../../contracts/cards.ts';
import { z } from 'zod';
import { topGraders } from '../../projections/leaderboard/queries.ts';
import type { RouteOptions } from '../app.ts';
import { routeDocs } from '../route-docs.ts';

/**
 * GET /api/leaderboard: the top graders (SPEC.md §7), public; `limit` (up to 100) for the full /leaderboard page.
 * Kept by an async projection, so it may lag a moment.
 */
export const leaderboardRoutes: FastifyPluginAsync<RouteOptions> = async (app, { runtime }) => {
  app.get('/api/leaderboard', { schema: routeDocs({ summary: 'Top graders by cards graded', tags: ['grading'], querystring: leaderboardQuerySchema, responses: { 200: z.array(leaderboardEntrySchema) }, errors: [400] }, 'GET') }, async (request) => {
    const { limit } = leaderboardQuerySchema.parse(request.query);
    return topGraders(runtime.database.db, limit);
  });
};
