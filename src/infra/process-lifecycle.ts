import type { Logger } from 'pino';

// What the server and worker entry points share about their process: thread pool size and signals.

/**
 * On SIGTERM or SIGINT, runs `stop` once and exits 0; if it has not finished within `timeoutMs`
 * (plus a second of grace), exits 1 anyway. A second signal exits at once.
 */
export function exitOnShutdownSignal(logger: Logger, timeoutMs: number, stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal; exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal, timeoutMs }, 'shutting down');
    const hardStop = setTimeout(() => {
      logger.error({ timeoutMs }, 'shutdown took too long; exiting');
      process.exit(1);
    }, timeoutMs + 1_000);
    hardStop.unref();
    stop().then(
      () => {
        logger.info('stopped');
        logger.flush();
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        logger.flush();
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/** libuv reads UV_THREADPOOL_SIZE when its pool first starts: call before anything does I/O on it. */
export function threadpoolSize(cores: number): string {
  // sharp decodes on this pool (about one task per core), and file I/O and the DNS lookups of
  // concurrent image downloads queue behind it: a few threads more than cores.
  return String(Math.max(8, cores + 4));
}
