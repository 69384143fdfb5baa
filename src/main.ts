// The API server: `npm start` (which builds the web app first) or `node src/main.ts`.
import os from 'node:os';
import { exitOnShutdownSignal, loadDotEnv, useCompileCache, threadpoolSize } from './infra/process-lifecycle.ts';

// Before any other import: settings from .env, then the size libuv's pool starts at.
loadDotEnv();
useCompileCache();
process.env.UV_THREADPOOL_SIZE ??= threadpoolSize(os.availableParallelism());

const { loadConfig } = await import('./config.ts');
const { DataDirLockedError } = await import('./infra/database/data-dir-lock.ts');
const { createLogger, createRuntime } = await import('./runtime.ts');
const { buildApp } = await import('./http/app.ts');
const { clientConnectionsWithin, openFileLimits } = await import('./infra/open-file-limit.ts');

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const logger = createLogger(config);

let runtime: Awaited<ReturnType<typeof createRuntime>>;
try {
  runtime = await createRuntime(config, { role: 'api', logger });
} catch (error) {
  if (error instanceof DataDirLockedError) {
    // A second server on the same data folder: say so plainly, no stack trace.
    console.error(`Cannot start: ${error.message}`);
  } else {
    logger.fatal({ err: error }, 'could not start');
  }
  process.exit(1);
}

const app = await buildApp(runtime);
// Client connections within the open-file limit (which Node raised to the hard one), with headroom for our own files.
const fileLimits = openFileLimits();
if (fileLimits) {
  app.server.maxConnections = clientConnectionsWithin(fileLimits.soft);
  logger.info({ openFiles: fileLimits.soft, maxConnections: app.server.maxConnections }, 'connections capped within the open-file limit');
}
exitOnShutdownSignal(logger, config.SHUTDOWN_TIMEOUT_MS, async () => {
  const deadline = Date.now() + config.SHUTDOWN_TIMEOUT_MS;
  // Stop taking requests and let those in flight finish (for up to half the budget); those that outlast it are
  // answered 503 shutting_down (never a cut connection); then jobs, runners, database.
  let timer: NodeJS.Timeout | undefined;
  const closed = app.close();
  const inTime = await Promise.race([closed.then(() => true), new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), config.SHUTDOWN_TIMEOUT_MS / 2)))]);
  clearTimeout(timer);
  if (!inTime) {
    const refused = app.refuseInFlight();
    logger.warn({ refused }, 'requests still in flight at the shutdown bound were answered 503');
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 500))]);
  }
  await runtime.close(Math.max(100, deadline - Date.now()));
});

try {
  await app.listen({ host: config.HOST, port: config.PORT });
} catch (error) {
  logger.fatal({ err: error }, `could not listen on ${config.HOST}:${config.PORT}`);
  await runtime.close();
  process.exit(1);
}
