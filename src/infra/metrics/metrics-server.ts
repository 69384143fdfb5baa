import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { registry } from './metrics.ts';

// /metrics for processes without an HTTP server of their own (`npm run worker`): the process's registry (jobs run
// and their durations, grading stages, image downloads, appends, CPU and memory) on METRICS_PORT, for the bearer of
// METRICS_TOKEN only, exactly as the API's /metrics. Queue sizes and projection lag are the same for every process
// and are read by the API's /metrics.

const digest = (text: string) => createHash('sha256').update(text).digest();

/** An `Authorization: Bearer …` header that carries the token, compared in constant time (as digests, so lengths do not show either). */
export function bearsToken(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer (.+)$/.exec(authorization ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

export async function startMetricsServer(options: { host: string; port: number; token: string; logger: Logger }): Promise<MetricsServer> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const json = (status: number, body: object, headers: Record<string, string> = {}) =>
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body));
    if (request.method !== 'GET' || path !== '/metrics') return json(404, { error: 'Not found', code: 'not_found' });
    if (!bearsToken(request.headers.authorization, options.token)) {
      return json(401, { error: 'The metrics are for operators: send the metrics token as a Bearer token.', code: 'metrics_token_required' }, { 'www-authenticate': 'Bearer realm="metrics"' });
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(text),
      (error: unknown) => {
        options.logger.error({ err: error }, 'metrics failed');
        json(500, { error: 'Something went wrong on our side. Please try again.', code: 'internal_error' });
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
