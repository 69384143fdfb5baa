import { Queue, UnrecoverableError, WaitingError, Worker, type Job as BullmqJob } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { jobFailures } from '../metrics/metrics.ts';
import {
  COMPLETED_RETENTION_MS,
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF,
  isFinalFailure,
  PermanentJobError,
  toError,
  type Job,
  type JobHandler,
  type JobQueue,
  type ProcessOptions,
} from './job-queue.ts';

// The service mode's queue: BullMQ on Redis, one BullMQ queue per job name, so each name has its own
// workers and concurrency. `npm run worker` processes run the handlers, as many as needed.

export interface BullmqQueueOptions {
  url: string;
  /** Namespace of every Redis key; tests use one each. */
  prefix?: string;
  logger: Logger;
}

// BullMQ refuses ids containing ':' (ours look like `importId:row`) and ids that read as integers,
// so ids are escaped on the way in and unescaped on the way out.
export function toBullmqId(id: string): string {
  const escaped = id.replaceAll('%', '%25').replaceAll(':', '%3A');
  return `${Number.parseInt(escaped, 10)}` === escaped ? `%N${escaped}` : escaped;
}

export function fromBullmqId(id: string): string {
  return id.replace(/^%N/, '').replace(/%(25|3A)/g, (escape) => (escape === '%25' ? '%' : ':'));
}

/**
 * A new connection's states before it is ready: not yet started, opening the socket, and connected but still
 * checking that Redis is ready ('connect'). A producer waits through them; from any other state it is told at once.
 */
const STILL_CONNECTING: ReadonlySet<string> = new Set(['wait', 'connecting', 'connect']);

export function createBullmqQueue(options: BullmqQueueOptions): JobQueue {
  const { logger } = options;
  const prefix = options.prefix ?? 'bull';
  // Producers fail fast while Redis is away (an API request answers 503 instead of hanging);
  // workers wait for it to come back, as BullMQ requires of its blocking connection.
  const producerConnection = new Redis(options.url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000 });
  const workerConnection = new Redis(options.url, { maxRetriesPerRequest: null, lazyConnect: true });
  for (const connection of [producerConnection, workerConnection]) {
    connection.on('error', (error) => logger.warn({ err: error }, 'redis connection error'));
  }

  const queues = new Map<string, Queue>();
  const workers = new Map<string, Worker>();
  let closing = false;
  // Resolved when shutdown runs out of time: running handlers stop waiting and hand their jobs back.
  let handBack!: () => void;
  const handBackRequested = new Promise<void>((resolve) => (handBack = resolve));

  /**
   * BullMQ waits for Redis without end; a producer must not (an API request would hang). While Redis is away the
   * caller is told at once (after `ms` when it is still connecting), with an error the HTTP layer answers with 503.
   */
  async function producerReady(ms: number): Promise<void> {
    if (producerConnection.status === 'ready') return;
    await new Promise<void>((resolve, reject) => {
      const onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        producerConnection.off('ready', onReady);
        reject(new Error('Connection is closed: the job queue (Redis) does not answer'));
      }, ms);
      producerConnection.once('ready', onReady);
    });
  }

  function queueFor(name: string): Queue {
    let queue = queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: producerConnection, prefix });
      queue.on('error', (error) => logger.warn({ err: error, queue: name }, 'queue error'));
      queues.set(name, queue);
    }
    return queue;
  }

  async function runJob<Data>(name: string, handler: JobHandler<Data>, processOptions: ProcessOptions<Data>, bullmqJob: BullmqJob, token: string | undefined): Promise<void> {
    const controller = new AbortController();
    const job: Job<Data> = {
      id: fromBullmqId(bullmqJob.id ?? ''),
      name,
      data: bullmqJob.data as Data,
      attempt: bullmqJob.attemptsMade + 1,
      maxAttempts: bullmqJob.opts.attempts ?? 1,
      signal: controller.signal,
    };
    const running = handler(job);
    let outcome: 'done' | 'hand-back';
    try {
      outcome = await Promise.race([running.then(() => 'done' as const), handBackRequested.then(() => 'hand-back' as const)]);
    } catch (caught) {
      const error = toError(caught);
      if (isFinalFailure(error, job.attempt, job.maxAttempts)) {
        try {
          await processOptions.onFailed?.(job, error);
        } catch (hookError) {
          logger.error({ job: name, jobId: job.id, err: hookError }, 'onFailed hook threw');
        }
        jobFailures.inc({ job: name });
        logger.error({ job: name, jobId: job.id, attempt: job.attempt, err: error }, 'job failed for good');
        if (error instanceof PermanentJobError) throw new UnrecoverableError(error.message);
      } else {
        logger.warn({ job: name, jobId: job.id, attempt: job.attempt, err: error }, 'job failed; will retry');
      }
      throw error;
    }
    if (outcome === 'hand-back') {
      controller.abort(new Error('Shutting down'));
      running.catch(() => {});
      await bullmqJob.moveToWait(token);
      logger.warn({ job: name, jobId: job.id }, 'job handed back at shutdown');
      // Tells BullMQ the job was moved on purpose: neither completed nor failed.
      throw new WaitingError();
    }
  }

  return {
    kind: 'bullmq',

    async enqueue(name, data, jobOptions) {
      if (closing) throw new Error(`Cannot enqueue ${name}: the queue is closing`);
      const backoff = jobOptions.backoff ?? DEFAULT_BACKOFF;
      await producerReady(STILL_CONNECTING.has(producerConnection.status) ? 2_000 : 0);
      // An id BullMQ still holds makes add() return the existing job: no duplicate.
      await queueFor(name).add(name, data, {
        jobId: toBullmqId(jobOptions.jobId),
        attempts: jobOptions.attempts ?? DEFAULT_ATTEMPTS,
        backoff: { type: 'exponential', delay: backoff.delayMs, jitter: backoff.jitter ?? 0 },
        removeOnComplete: { age: COMPLETED_RETENTION_MS / 1000 },
        removeOnFail: true,
      });
    },

    async repeat(name, data, { schedulerId, everyMs }) {
      if (closing) throw new Error(`Cannot repeat ${name}: the queue is closing`);
      await queueFor(name).upsertJobScheduler(
        toBullmqId(schedulerId),
        { every: everyMs },
        { name, data, opts: { attempts: 1, removeOnComplete: { age: COMPLETED_RETENTION_MS / 1000 }, removeOnFail: true } },
      );
    },

    process(name, handler, processOptions = {}) {
      if (workers.has(name)) throw new Error(`A handler for ${name} is already registered`);
      const worker = new Worker(name, (bullmqJob, token) => runJob(name, handler, processOptions, bullmqJob, token), {
        connection: workerConnection,
        prefix,
        concurrency: processOptions.concurrency ?? 1,
        ...(processOptions.lockDurationMs
          ? { lockDuration: processOptions.lockDurationMs, stalledInterval: processOptions.lockDurationMs, maxStalledCount: 5 }
          : {}),
      });
      worker.on('error', (error) => logger.warn({ err: error, queue: name }, 'worker error'));
      workers.set(name, worker);
    },

    async ping() {
      await producerConnection.ping();
    },

    async counts() {
      const names = [...new Set([...queues.keys(), ...workers.keys()])];
      return Promise.all(
        names.map(async (name) => {
          const counts = await queueFor(name).getJobCounts('waiting', 'delayed', 'prioritized', 'active');
          return { name, waiting: (counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0), active: counts.active ?? 0 };
        }),
      );
    },

    async close(timeoutMs) {
      if (closing) return;
      closing = true;
      // Leave time to hand jobs back before the bound; past the bound, connections are cut.
      const handBackAfter = Math.max(0, timeoutMs - Math.min(1_000, timeoutMs / 4));
      const handBackTimer = setTimeout(handBack, handBackAfter);
      let hardStop: NodeJS.Timeout | undefined;
      const orderly = (async () => {
        await Promise.all([...workers.values()].map((worker) => worker.close()));
        await Promise.all([...queues.values()].map((queue) => queue.close()));
      })();
      const finishedInTime = await Promise.race([
        orderly.then(() => true),
        new Promise<boolean>((resolve) => (hardStop = setTimeout(() => resolve(false), timeoutMs))),
      ]);
      clearTimeout(handBackTimer);
      clearTimeout(hardStop);
      if (!finishedInTime) {
        logger.warn('job queue did not close in time; disconnecting from Redis');
        orderly.catch(() => {});
        for (const worker of workers.values()) void worker.close(true).catch(() => {});
        producerConnection.disconnect();
        workerConnection.disconnect();
        return;
      }
      await Promise.allSettled([producerConnection.quit(), workerConnection.status === 'wait' ? undefined : workerConnection.quit()]);
    },
  };
}
