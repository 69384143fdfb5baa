import fs from 'node:fs';
import { enableCompileCache } from 'node:module';
import type { Logger } from 'pino';

// What the server and worker entry points share about their process: settings file, thread pool size, signals.

/** Reads `.env` from the working folder when there is one; variables already set in the environment win. */
export function loadDotEnv(): void {
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
}

/**
 * Keeps V8's compiled code of our modules (types stripped) on disk, in the system's temporary folder, so a process
 * started again skips compiling them: the server's own imports took 2.0 s of CPU cold and 1.1 s cached here, its
 * start 1.3 s less. NODE_COMPILE_CACHE, when set, names the folder; it is set in the environment too, for the child
 * processes this one starts.
 */
export function useCompileCache(): void {
  const { directory } = enableCompileCache(process.env.NODE_COMPILE_CACHE);
  if (directory) process.env.NODE_COMPILE_CACHE ??= directory;
}

/** Logging must never stand between a process and its exit (a closed stdout throws EPIPE). */
function tryLog(log: () => void): void {
  try {
    log();
  } catch {
    // nowhere left to say it
  }
}

/**
 * On SIGTERM or SIGINT, runs `stop` once and exits 0; if it has not finished within `timeoutMs`
 * (plus a second of grace), exits 1 anyway. A second signal exits at once.
 */
export function exitOnShutdownSignal(logger: Logger, timeoutMs: number, stop: () => Promise<void>): void {
  let stopping = false;
  const exit = (code: number, message: string, error?: unknown) => {
    tryLog(() => (code === 0 ? logger.info(message) : logger.error({ err: error }, message)));
    tryLog(() => logger.flush());
    process.exit(code);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) exit(1, `second ${signal}; exiting now`);
    stopping = true;
    tryLog(() => logger.info({ signal, timeoutMs }, 'shutting down'));
    setTimeout(() => exit(1, 'shutdown took too long; exiting'), timeoutMs + 1_000).unref();
    stop().then(
      () => exit(0, 'stopped'),
      (error: unknown) => exit(1, 'shutdown failed', error),
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
