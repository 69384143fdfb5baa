// Queue workers for the service mode: `npm run worker`, on as many machines as needed.
import os from 'node:os';
import { exitOnShutdownSignal, loadDotEnv, useCompileCache, threadpoolSize } from '../infra/process-lifecycle.ts';

// Before any other import: settings from .env, then the size libuv's pool starts at (sharp decodes on it).
loadDotEnv();
useCompileCache();
process.env.UV_THREADPOOL_SIZE ??= threadpoolSize(os.availableParallelism());

const { loadConfig } = await import('../config.ts');
const { createLogger, createRuntime } = await import('../runtime.ts');
const { startMetricsServer } = await import('../infra/metrics/metrics-server.ts');

const config = loadConfig();
if (!config.REDIS_URL || !config.DATABASE_URL) {
  // Embedded mode has no separate workers: the server runs the jobs itself, and PGlite belongs to one process.
  console.error('npm run worker needs the service mode: set DATABASE_URL and REDIS_URL (see README.md). With neither set, npm start runs the jobs itself.');
  process.exit(1);
}
const logger = createLogger(config);
const runtime = await createRuntime(config, { role: 'worker', logger });
// Its own /metrics, since a worker has no HTTP server: only with both settings.
const metricsServer =
  config.METRICS_TOKEN && config.METRICS_PORT !== undefined ? await startMetricsServer({ host: config.HOST, port: config.METRICS_PORT, token: config.METRICS_TOKEN, logger }) : undefined;
if (metricsServer) logger.info({ port: metricsServer.port }, `metrics at http://${config.HOST}:${metricsServer.port}/metrics`);
else if (config.METRICS_TOKEN) logger.info('no /metrics in this worker: set METRICS_PORT to serve them');
exitOnShutdownSignal(logger, config.SHUTDOWN_TIMEOUT_MS, async () => {
  await metricsServer?.close();
  await runtime.close();
});
logger.info({ jobs: runtime.handledJobs }, 'worker running; SIGTERM stops it');
