import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../contracts/errors.ts';
import { bearsToken } from '../../infra/metrics/metrics-server.ts';
import { jobs, metricsSourceUp, projectionLag, registry } from '../../infra/metrics/metrics.ts';
import { asyncProjections, inlineProjections } from '../../projections/index.ts';
import { projectionStatus } from '../../projections/runner/index.ts';
import type { RouteOptions } from '../app.ts';
import { routeDocs } from '../route-docs.ts';

// GET /metrics for operators (issue 14): only with METRICS_TOKEN set, and only to a request bearing it. Without the
// setting the route does not exist (404, like any unknown path). Outside the API: no session, no cookie.

const SOURCE_TIMEOUT_MS = 1_000;

function withinTime<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${SOURCE_TIMEOUT_MS} ms`)), SOURCE_TIMEOUT_MS)));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export const metricsRoutes: FastifyPluginAsync<RouteOptions> = async (app, { runtime }) => {
  const token = runtime.config.METRICS_TOKEN;
  if (!token) return;

  app.get('/metrics', { schema: routeDocs({ summary: 'Prometheus metrics, for the bearer of METRICS_TOKEN only', tags: ['operations'], responses: { 200: z.string().meta({ description: 'Prometheus text format' }) }, errors: [401], noSession: true }, 'GET') }, async (request, reply) => {
    if (!bearsToken(request.headers.authorization, token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new AppError('unauthorized', 'metrics_token_required', 'The metrics are for operators: send the metrics token as a Bearer token.');
    }
    // Read now, from this process's database and queue. The metrics matter most while one of them is down (issue
    // 34): a source that does not answer within a second is reported as down and its figures left out, never a 503.
    const [statuses, counts] = await Promise.allSettled([
      withinTime(projectionStatus(runtime.database.db, { inline: inlineProjections, async: asyncProjections })),
      // Pinged as well: a process that has enqueued nothing yet counts no job names, and would not notice.
      withinTime(Promise.all([runtime.queue.ping(), runtime.queue.counts()]).then(([, counts]) => counts)),
    ]);
    projectionLag.reset();
    metricsSourceUp.set({ source: 'database' }, statuses.status === 'fulfilled' ? 1 : 0);
    if (statuses.status === 'fulfilled') for (const s of statuses.value) projectionLag.set({ projection: s.name, kind: s.kind, status: s.status }, s.lag);
    else request.log.warn({ err: statuses.reason }, 'metrics: the database did not answer');
    jobs.reset();
    metricsSourceUp.set({ source: 'queue' }, counts.status === 'fulfilled' ? 1 : 0);
    if (counts.status === 'fulfilled') {
      for (const c of counts.value) {
        jobs.set({ job: c.name, state: 'waiting' }, c.waiting);
        jobs.set({ job: c.name, state: 'active' }, c.active);
      }
    } else {
      request.log.warn({ err: counts.reason }, 'metrics: the job queue did not answer');
    }
    reply.header('content-type', registry.contentType).header('cache-control', 'no-store');
    return registry.metrics();
  });
};
