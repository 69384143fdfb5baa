import { constants as zlibConstants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { createSessionRepository } from '../infra/auth/session-repository.ts';
import type { Runtime } from '../runtime.ts';
import { allowedHostsPlugin } from './plugins/allowed-hosts.ts';
import { connectionLimitsPlugin } from './plugins/connection-limits.ts';
import { answerClientError, answerFrameworkError, errorsPlugin } from './plugins/errors.ts';
import { jsonBodyPlugin } from './plugins/json-body.ts';
import { liveSocketsPlugin } from './plugins/live-sockets.ts';
import { registerOpenApi, registerOpenApiRoutes } from './openapi.ts';
import { inFlightPlugin } from './plugins/in-flight.ts';
import { originCheckPlugin } from './plugins/origin-check.ts';
import { requestMetricsPlugin } from './plugins/request-metrics.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { sessionPlugin } from './plugins/session.ts';
import { webAppPlugin } from './plugins/web-app.ts';
import { RequestLog } from './request-log.ts';
import { accountRoutes } from './routes/account.ts';
import { achievementRoutes } from './routes/achievements.ts';
import { addressRoutes } from './routes/addresses.ts';
import { authRoutes } from './routes/auth.ts';
import { passwordResetRoutes } from './routes/password-reset.ts';
import { cardRoutes } from './routes/cards.ts';
import { feedbackRoutes } from './routes/feedback.ts';
import { healthRoutes } from './routes/health.ts';
import { imageRoutes } from './routes/images.ts';
import { leaderboardRoutes } from './routes/leaderboard.ts';
import { metricsRoutes } from './routes/metrics.ts';
import { portfolioRoutes } from './routes/portfolio.ts';
import { ordersRoutes } from './routes/orders.ts';
import { worthGradingRoutes } from './routes/worth-grading.ts';
import { professionalGradeRoutes } from './routes/professional-grades.ts';
import { importRoutes } from './routes/imports.ts';

/**
 * fastify's trustProxy from TRUST_PROXY: a hop count trusts that many proxies counted from the server (the address
 * one hop further is the client's, read from the right of X-Forwarded-For); a list trusts those addresses only.
 */
function trustedProxies(setting: Config['TRUST_PROXY']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting;
}

/** What every route plugin is registered with: `app.register(myRoutes, { runtime })`. */
export interface RouteOptions {
  runtime: Runtime;
}

/**
 * The HTTP server, in a fixed order: external plugins, then ours, then the probes, then the API
 * (its plugins, then its routes), then the web app (static files and the index.html fallback), last.
 */
export async function buildApp(runtime: Runtime): Promise<FastifyInstance> {
  const { config } = runtime;
  const app = Fastify({
    loggerInstance: runtime.logger as FastifyBaseLogger,
    logController: new RequestLog(),
    bodyLimit: 1024 * 1024,
    trustProxy: trustedProxies(config.TRUST_PROXY),
    // An id of any length reaches its route, which answers like for any unknown id ('Card not found'), rather than
    // falling through to the static files. Node's 16 KB header limit bounds the URL anyway.
    routerOptions: { maxParamLength: 16 * 1024 },
    // What fastify and Node refuse before a route is found answers in the one shape too (./plugins/errors.ts).
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
    // Deadlines for a request's arrival, so a client dripping a byte at a time cannot hold a connection for ever: the
    // whole request (headers and body) within REQUEST_BODY_TIMEOUT_MS, its headers within REQUEST_HEADERS_TIMEOUT_MS;
    // Node answers 408 (in our shape: answerClientError) and closes. Node looks for late requests every
    // connectionsCheckingInterval (30 s by default, which would let a 30 s deadline run to a minute): a quarter of the
    // shorter deadline, at most a second, so a request is cut within a second of its deadline.
    requestTimeout: config.REQUEST_BODY_TIMEOUT_MS,
    http: {
      requestTimeout: config.REQUEST_BODY_TIMEOUT_MS,
      headersTimeout: config.REQUEST_HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(config.REQUEST_HEADERS_TIMEOUT_MS / 4))),
    },
  });

  // First: the OpenAPI document learns every route registered after it.
  await registerOpenApi(app);

  // ── External plugins ───────────────────────────────────────────────────────────────────────────
  // Security headers on every answer (CSP, nosniff, frame-ancestors, Referrer-Policy, COOP, HSTS over HTTPS).
  await app.register(securityHeadersPlugin);
  await app.register(fastifyCookie);
  // Answers over 1 KB (JSON above all) go out compressed to clients that accept it; brotli at a low quality, which
  // compresses JSON about as well as gzip at a fraction of the time. The web app's files are compressed at build time.
  await app.register(fastifyCompress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await app.register(fastifyMultipart, {
    limits: { fileSize: config.IMAGE_MAX_BYTES, files: 4, fields: 30, fieldSize: 64 * 1024, parts: 40 },
  });
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });
  // Off by default; a route opts in with `config: { rateLimit: { max, timeWindow } }`. With Redis, the
  // counts are shared by every API process.
  const rateLimitRedis = config.REDIS_URL ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000 }) : undefined;
  if (rateLimitRedis) {
    rateLimitRedis.on('error', (error) => app.log.warn({ err: error }, 'rate-limit redis error'));
    app.addHook('onClose', async () => void (await rateLimitRedis.quit().catch(() => rateLimitRedis.disconnect())));
  }
  await app.register(fastifyRateLimit, {
    global: false,
    // A Redis outage lets requests through rather than failing them all.
    ...(rateLimitRedis ? { redis: rateLimitRedis, nameSpace: `${config.QUEUE_PREFIX}:rate-limit:`, skipOnError: true } : {}),
  });

  // ── Our plugins for the whole server (errors first, so every later refusal is shaped) ───────────
  await app.register(errorsPlugin);
  // Connections per client address; behind a proxy every connection is the proxy's, so the proxy caps them.
  await app.register(connectionLimitsPlugin, { perAddress: config.TRUST_PROXY === false ? config.CONNECTIONS_PER_ADDRESS : 0 });
  // JSON bodies: strict UTF-8, then fastify's parser.
  await app.register(jsonBodyPlugin);
  // Only the Hosts the app is reached at (PUBLIC_ORIGIN, or its own loopback names): a 421 for any other.
  await app.register(allowedHostsPlugin, { publicOrigins: config.PUBLIC_ORIGIN });
  await app.register(requestMetricsPlugin);
  // What shutdown answers with 503 when it cannot wait any longer.
  await app.register(inFlightPlugin);

  // ── Probes: outside the API below, so they never touch sessions ─────────────────────────────────
  await app.register(healthRoutes, { runtime });
  // Operators' figures: only with METRICS_TOKEN, only to its bearer.
  await app.register(metricsRoutes, { runtime });
  // Stored images: public and cached for ever, so outside the API too (a cacheable response never sets a cookie).
  await app.register(imageRoutes, { runtime });

  // ── The API, in a context of its own: its plugins apply to its routes only ──────────────────────
  await app.register(async (api) => {
    // JSON and multipart only: a text/plain body (what a cross-site form or a "simple" fetch can send) is a 415.
    api.removeContentTypeParser('text/plain');
    // Plugins: one line each, in the order they must run.
    await api.register(originCheckPlugin, { publicOrigins: config.PUBLIC_ORIGIN, trustedOrigins: config.TRUSTED_ORIGINS });
    // The WebSockets open here, so that a session's end closes its sockets (sessionPlugin calls it).
    await api.register(liveSocketsPlugin, {
      sessions: createSessionRepository(runtime.database.db, runtime.clock, runtime.ids),
      perUser: config.WS_PER_USER,
      perAddress: config.WS_PER_ADDRESS,
      idleTimeoutMs: config.WS_IDLE_TIMEOUT_MS,
    });
    await api.register(sessionPlugin, { runtime });

    // Routes: one line per feature.
    await api.register(authRoutes, { runtime });
    await api.register(passwordResetRoutes, { runtime });
    await api.register(cardRoutes, { runtime });
    await api.register(professionalGradeRoutes, { runtime });
    await api.register(leaderboardRoutes, { runtime });
    await api.register(achievementRoutes, { runtime });
    await api.register(portfolioRoutes, { runtime });
    await api.register(feedbackRoutes, { runtime });
    await api.register(accountRoutes, { runtime });
    await api.register(addressRoutes, { runtime });
    await api.register(ordersRoutes, { runtime });
    await api.register(worthGradingRoutes, { runtime });
    await api.register(importRoutes, { runtime });
  });

  // The API's OpenAPI document and its page, outside the API's sessions (no cookie).
  await registerOpenApiRoutes(app);

  // ── The web app: static files and the index.html fallback; always last ─────────────────────────
  await app.register(webAppPlugin, { distDir: config.WEB_DIST_DIR });

  return app;
}
