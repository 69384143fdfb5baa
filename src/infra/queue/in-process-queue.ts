import type { Logger } from 'pino';
import { jobFailures } from '../metrics/metrics.ts';
import {
  COMPLETED_RETENTION_MS,
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF,
  isFinalFailure,
  retryDelayMs,
  toError,
  type Backoff,
  type Job,
  type JobHandler,
  type JobOptions,
  type JobQueue,
  type ProcessOptions,
} from './job-queue.ts';

// The embedded mode's queue: same behaviour as the BullMQ adapter, in memory. Nothing survives the
// process; after a restart, work still to do is enqueued again from the event log (DESIGN.md §5).

interface Entry {
  key: string;
  name: string;
  id: string;
  data: unknown;
  attempt: number;
  maxAttempts: number;
  backoff: Backoff;
}

interface Lane {
  waiting: Entry[];
  /** Failed tries waiting out their backoff. */
  delayed: number;
  running: Map<string, { controller: AbortController; done: Promise<void> }>;
  handler?: JobHandler;
  options: ProcessOptions;
}

const MAX_REMEMBERED_COMPLETED = 10_000;

export interface InProcessQueueOptions {
  logger: Logger;
  now?: () => number;
}

export function createInProcessQueue(options: InProcessQueueOptions): JobQueue {
  const { logger } = options;
  const now = options.now ?? Date.now;
  const lanes = new Map<string, Lane>();
  /** Keys of jobs waiting, delayed or running. */
  const held = new Set<string>();
  /** Keys of completed jobs, oldest first, with when they completed. */
  const completed = new Map<string, number>();
  const retryTimers = new Set<NodeJS.Timeout>();
  const repeatTimers = new Set<NodeJS.Timeout>();
  let closing = false;

  const keyOf = (name: string, id: string) => `${name}\u0000${id}`;

  function lane(name: string): Lane {
    let found = lanes.get(name);
    if (!found) {
      found = { waiting: [], delayed: 0, running: new Map(), options: {} };
      lanes.set(name, found);
    }
    return found;
  }

  function rememberCompleted(key: string): void {
    completed.set(key, now());
    for (const [oldKey, at] of completed) {
      if (completed.size <= MAX_REMEMBERED_COMPLETED && now() - at < COMPLETED_RETENTION_MS) break;
      completed.delete(oldKey);
    }
  }

  function isCompletedRecently(key: string): boolean {
    const at = completed.get(key);
    return at !== undefined && now() - at < COMPLETED_RETENTION_MS;
  }

  function pump(name: string): void {
    const current = lane(name);
    const concurrency = current.options.concurrency ?? 1;
    while (!closing && current.handler && current.running.size < concurrency && current.waiting.length > 0) {
      start(current, current.waiting.shift()!);
    }
  }

  function start(current: Lane, entry: Entry): void {
    const handler = current.handler!;
    const controller = new AbortController();
    entry.attempt++;
    const job: Job = {
      id: entry.id,
      name: entry.name,
      data: entry.data,
      attempt: entry.attempt,
      maxAttempts: entry.maxAttempts,
      signal: controller.signal,
    };
    const done = (async () => {
      try {
        await handler(job);
        if (controller.signal.aborted) return;
        held.delete(entry.key);
        rememberCompleted(entry.key);
      } catch (caught) {
        if (controller.signal.aborted) return;
        await settleFailure(current, entry, job, toError(caught));
      } finally {
        current.running.delete(entry.key);
        pump(entry.name);
      }
    })();
    current.running.set(entry.key, { controller, done });
  }

  async function settleFailure(current: Lane, entry: Entry, job: Job, error: Error): Promise<void> {
    if (!isFinalFailure(error, entry.attempt, entry.maxAttempts)) {
      const delay = retryDelayMs(entry.backoff, entry.attempt);
      logger.warn({ job: entry.name, jobId: entry.id, attempt: entry.attempt, retryInMs: delay, err: error }, 'job failed; will retry');
      current.delayed++;
      const timer = setTimeout(() => {
        retryTimers.delete(timer);
        current.delayed--;
        current.waiting.push(entry);
        pump(entry.name);
      }, delay);
      retryTimers.add(timer);
      return;
    }
    held.delete(entry.key);
    jobFailures.inc({ job: entry.name });
    logger.error({ job: entry.name, jobId: entry.id, attempt: entry.attempt, err: error }, 'job failed for good');
    try {
      await current.options.onFailed?.(job, error);
    } catch (hookError) {
      logger.error({ job: entry.name, jobId: entry.id, err: hookError }, 'onFailed hook threw');
    }
  }

  const queue: JobQueue = {
    kind: 'in-process',

    async enqueue(name, data, jobOptions: JobOptions) {
      if (closing) throw new Error(`Cannot enqueue ${name}: the queue is closing`);
      const key = keyOf(name, jobOptions.jobId);
      if (held.has(key) || isCompletedRecently(key)) return;
      held.add(key);
      lane(name).waiting.push({
        key,
        name,
        id: jobOptions.jobId,
        // The same JSON round trip as Redis, so handlers see the same data on both adapters.
        data: data === undefined ? undefined : JSON.parse(JSON.stringify(data)),
        attempt: 0,
        maxAttempts: jobOptions.attempts ?? DEFAULT_ATTEMPTS,
        backoff: jobOptions.backoff ?? DEFAULT_BACKOFF,
      });
      pump(name);
    },

    process(name, handler, processOptions = {}) {
      const current = lane(name);
      if (current.handler) throw new Error(`A handler for ${name} is already registered`);
      current.handler = handler as JobHandler;
      current.options = processOptions as ProcessOptions;
      pump(name);
    },

    async repeat(name, data, { schedulerId, everyMs }) {
      if (closing) throw new Error(`Cannot repeat ${name}: the queue is closing`);
      // At whole multiples of the interval since the epoch, as BullMQ's scheduler does: a process restarted more
      // often than the interval still runs it (daily: at midnight UTC).
      const fire = () => {
        const slot = Math.round(now() / everyMs);
        queue.enqueue(name, data, { jobId: `${schedulerId}:${slot}`, attempts: 1 }).catch((error: unknown) => logger.warn({ err: error, job: name }, 'repeated job not enqueued'));
      };
      const first = setTimeout(() => {
        repeatTimers.delete(first);
        fire();
        const every = setInterval(fire, everyMs);
        every.unref();
        repeatTimers.add(every);
      }, everyMs - (now() % everyMs));
      first.unref();
      repeatTimers.add(first);
    },

    async ping() {},

    async counts() {
      return [...lanes.entries()].map(([name, l]) => ({ name, waiting: l.waiting.length + l.delayed, active: l.running.size }));
    },

    async close(timeoutMs) {
      if (closing) return;
      closing = true;
      for (const timer of retryTimers) clearTimeout(timer);
      for (const timer of repeatTimers) clearTimeout(timer);
      repeatTimers.clear();
      const dropped = retryTimers.size + [...lanes.values()].reduce((n, l) => n + l.waiting.length, 0);
      retryTimers.clear();
      const runningNow = () => [...lanes.values()].flatMap((l) => [...l.running.values()]);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled(runningNow().map((r) => r.done)),
        new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
      ]);
      clearTimeout(timer);
      const abandoned = runningNow();
      for (const r of abandoned) r.controller.abort(new Error('Shutting down'));
      if (dropped > 0 || abandoned.length > 0) {
        logger.warn({ dropped, abandoned: abandoned.length }, 'in-process queue closed with work left; it is enqueued again at the next start');
      }
    },
  };
  return queue;
}
