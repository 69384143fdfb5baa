import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createBullmqQueue, createInProcessQueue, type JobQueue } from '../../src/infra/queue/index.ts';
import { redisAvailable, TEST_REDIS_URL } from '../support/services.ts';

// A job repeated every interval (the daily price refresh): one run per interval however many processes schedule it
// (a BullMQ job scheduler), a timer at whole intervals in the in-process queue.

const logger = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const EVERY_MS = 300;
const withRedis = await redisAvailable();

describe('a repeated job', () => {
  const opened: JobQueue[] = [];
  const prefix = `test-${randomBytes(6).toString('hex')}`;
  afterAll(async () => {
    await Promise.all(opened.map((queue) => queue.close(1_000)));
    if (withRedis) {
      const redis = new Redis(TEST_REDIS_URL);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });

  it('runs once per interval in the in-process queue, and stops when the queue closes', async () => {
    const queue = createInProcessQueue({ logger });
    opened.push(queue);
    const runs: string[] = [];
    queue.process('tick', async (job) => void runs.push(job.id));
    await queue.repeat('tick', {}, { schedulerId: 'tick', everyMs: EVERY_MS });
    await sleep(EVERY_MS * 3 + 100);
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.length).toBeLessThanOrEqual(4);
    expect(new Set(runs).size).toBe(runs.length);
    await queue.close(500);
    const after = runs.length;
    await sleep(EVERY_MS + 50);
    expect(runs.length).toBe(after);
  });

  it.runIf(withRedis)('runs once per interval on BullMQ, however many processes schedule it', async () => {
    const [a, b] = [createBullmqQueue({ url: TEST_REDIS_URL, prefix, logger }), createBullmqQueue({ url: TEST_REDIS_URL, prefix, logger })];
    opened.push(a, b);
    const runs: string[] = [];
    a.process('tick', async (job) => void runs.push(`a:${job.id}`));
    b.process('tick', async (job) => void runs.push(`b:${job.id}`));
    await a.repeat('tick', {}, { schedulerId: 'tick', everyMs: EVERY_MS });
    await b.repeat('tick', {}, { schedulerId: 'tick', everyMs: EVERY_MS });
    await sleep(EVERY_MS * 3 + 200);
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.length).toBeLessThanOrEqual(5);
    expect(new Set(runs.map((r) => r.slice(2))).size).toBe(runs.length); // no interval ran twice
  });
});
