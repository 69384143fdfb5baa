import type { FastifyPluginAsync } from 'fastify';
import { topGraders } from '../../projections/leaderboard/queries.ts';
import type { RouteOptions } from '../app.ts';

/** GET /api/leaderboard: the top graders (SPEC.md §7), public. Kept by an async projection, so it may lag a moment. */
export const leaderboardRoutes: FastifyPluginAsync<RouteOptions> = async (app, { runtime }) => {
  app.get('/api/leaderboard', async () => topGraders(runtime.database.db));
};
