import os from 'node:os';
import { isMainThread } from 'node:worker_threads';

// Pixel work and OCR run on threads of their own; the event loop answers every request. On a machine with few
// cores, a busy pixel thread took the core from the event loop as often as not, and a request for a list waited
// behind a card being graded (issue 15: reads' p99 of several hundred ms while grading ran). So those threads run
// below the event loop's priority: they still have every core the event loop leaves idle, and yield when it needs
// one. Linux keeps a nice value per thread, and pid 0 names the calling thread; elsewhere it would be the whole
// process, so there it is left alone.

/**
 * The nice value of pool and OCR threads (BACKGROUND_THREAD_NICE, checked by src/config.ts; default 10: the event
 * loop, at 0, gets about nine tenths of a core both want). Read from the environment, which a thread inherits.
 */
export function backgroundThreadNice(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.BACKGROUND_THREAD_NICE ?? 10);
  return Number.isInteger(value) && value >= 0 && value <= 19 ? value : 10;
}

/** Lowers the calling thread's priority to backgroundThreadNice(); never the main thread's, and only on Linux. */
export function lowerThisThreadsPriority(): void {
  if (isMainThread || process.platform !== 'linux') return;
  const nice = backgroundThreadNice();
  try {
    if (os.getPriority(0) < nice) os.setPriority(0, nice);
  } catch {
    // Not allowed here (a sandbox): the thread runs at the process's priority, as it did before.
  }
}
