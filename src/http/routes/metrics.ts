import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../contracts/errors.ts';
import { bearsToken } from '../../infra/metrics/metrics-server.ts';
import { jobs, projectionLag, registry } from '../../infra/metrics/metrics.ts';
import { asyncProjections, inlineProjections } from '../../projections/index.ts';
import { projectionStatus } from '../../projections/runner/index.ts';
import type { RouteOptions } from '../app.ts';
import { routeDocs } from '../route-docs.ts';

// GET /metrics for operators (issue 14): only with METRICS_TOKEN set, and only to a request bearing it. Without the
// setting the route does not exist (404, like any unknown path). Outside the API: no session, no cookie.

export const metricsRoutes: FastifyPluginAsync<RouteOptions> = async (app, { runtime }) => {
  const token = runtime.config.METRICS_TOKEN;
  if (!token) return;

  app.get('/metrics', { schema: routeDocs({ summary: 'Prometheus metrics, for the bearer of METRICS_TOKEN only', tags: ['operations'], responses: { 200: z.string().meta({ description: 'Prometheus text format' }) }, errors: [401], noSession: true }, 'GET') }, async (request, reply) => {
    if (!bearsToken(request.headers.authorization, token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new AppError('unauthorized', 'metrics_token_required', 'The metrics are for operators: send the metrics token as a Bearer token.');
    }
    // Read now, from this process's database and queue.
    const [statuses, counts] = await Promise.all([
      projectionStatus(runtime.database.db, { inline: inlineProjections, async: asyncProjections }),
      runtime.queue.counts(),
    ]);
    projectionLag.reset();
    for (const s of statuses) projectionLag.set({ projection: s.name, kind: s.kind, status: s.status }, s.lag);
    jobs.reset();
    for (const c of counts) {
      jobs.set({ job: c.name, state: 'waiting' }, c.waiting);
      jobs.set({ job: c.name, state: 'active' }, c.active);
    }
    reply.header('content-type', registry.contentType).header('cache-control', 'no-store');
    return registry.metrics();
  });
};
