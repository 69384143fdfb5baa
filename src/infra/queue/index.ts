import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import { createBullmqQueue } from './bullmq-queue.ts';
import { createInProcessQueue } from './in-process-queue.ts';
import type { JobQueue } from './job-queue.ts';

export * from './job-queue.ts';
export { createBullmqQueue, fromBullmqId, toBullmqId } from './bullmq-queue.ts';
export { createInProcessQueue } from './in-process-queue.ts';

/** BullMQ when REDIS_URL is set, else the in-process queue (DESIGN.md §2). */
export function createJobQueue(config: Pick<Config, 'REDIS_URL' | 'QUEUE_PREFIX'>, logger: Logger): JobQueue {
  return config.REDIS_URL
    ? createBullmqQueue({ url: config.REDIS_URL, prefix: config.QUEUE_PREFIX, logger })
    : createInProcessQueue({ logger });
}
