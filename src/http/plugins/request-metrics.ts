import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { httpRequestDuration, httpRequests } from '../../infra/metrics/metrics.ts';

/**
 * Counts every answer and its latency by method, route and status. The route is the pattern a request matched
 * (`/api/card/:id`), never the path it asked for, so ids do not turn into new series; anything unmatched is one.
 */
export const requestMetricsPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onResponse', async (request, reply) => {
      const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) };
      httpRequests.inc(labels);
      httpRequestDuration.observe(labels, reply.elapsedTime / 1000);
    });
  },
  { name: 'request-metrics' },
);
