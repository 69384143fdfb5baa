import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createBullmqQueue, createInProcessQueue, fromBullmqId, PermanentJobError, toBullmqId, type Job, type JobQueue } from '../../src/infra/queue/index.ts';
import { redisAvailable, TEST_REDIS_URL } from '../support/services.ts';

// The same behaviour on both adapters: BullMQ against the machine's Redis (a key prefix per test),
// and the in-process queue.

const logger = pino({ level: 'silent' });
const adapters = ['in-process', ...((await redisAvailable()) ? ['bullmq' as const] : [])] as const;

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(adapters)('%s job queue', (adapter) => {
  const prefix = `test-${randomBytes(6).toString('hex')}`;
  const opened: JobQueue[] = [];

  function openQueue(): JobQueue {
    const queue = adapter === 'bullmq' ? createBullmqQueue({ url: TEST_REDIS_URL, prefix, logger }) : createInProcessQueue({ logger });
    opened.push(queue);
    return queue;
  }

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((queue) => queue.close(1_000)));
    if (adapter === 'bullmq') {
      const redis = new Redis(TEST_REDIS_URL);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });

  it('delivers a job with its data, as JSON', async () => {
    const queue = openQueue();
    const received: Job[] = [];
    queue.process('deliver', async (job) => void received.push(job));
    await queue.enqueue('deliver', { row: 7, at: new Date('2024-01-02T03:04:05Z') }, { jobId: 'import-1:7' });
    await waitFor(() => received.length === 1);
    expect(received[0]).toMatchObject({ id: 'import-1:7', name: 'deliver', data: { row: 7, at: '2024-01-02T03:04:05.000Z' }, attempt: 1, maxAttempts: 3 });
  });

  it('retries a failed job after its backoff', async () => {
    const queue = openQueue();
    const tries: { attempt: number; at: number }[] = [];
    queue.process('flaky', async (job) => {
      tries.push({ attempt: job.attempt, at: Date.now() });
      if (job.attempt === 1) throw new Error('temporary failure');
    });
    await queue.enqueue('flaky', {}, { jobId: 'flaky-1', attempts: 3, backoff: { delayMs: 300, jitter: 0 } });
    await waitFor(() => tries.length === 2);
    await sleep(400);
    expect(tries.map((t) => t.attempt)).toEqual([1, 2]);
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(280);
  });

  it('stops after the last try and reports the failure once', async () => {
    const queue = openQueue();
    const tries: number[] = [];
    const failures: { attempt: number; message: string }[] = [];
    queue.process(
      'always-fails',
      async (job) => {
        tries.push(job.attempt);
        throw new Error(`broken ${job.attempt}`);
      },
      { onFailed: (job, error) => void failures.push({ attempt: job.attempt, message: error.message }) },
    );
    await queue.enqueue('always-fails', {}, { jobId: 'fails-1', attempts: 3, backoff: { delayMs: 20, jitter: 0 } });
    await waitFor(() => failures.length === 1);
    await sleep(200);
    expect(tries).toEqual([1, 2, 3]);
    expect(failures).toEqual([{ attempt: 3, message: 'broken 3' }]);
  });

  it('fails a job for good at once on a PermanentJobError', async () => {
    const queue = openQueue();
    const tries: number[] = [];
    const failures: string[] = [];
    queue.process(
      'corrupt-image',
      async (job) => {
        tries.push(job.attempt);
        throw new PermanentJobError('not an image');
      },
      { onFailed: (_job, error) => void failures.push(error.message) },
    );
    await queue.enqueue('corrupt-image', {}, { jobId: 'corrupt-1', attempts: 5, backoff: { delayMs: 20 } });
    await waitFor(() => failures.length === 1);
    await sleep(200);
    expect(tries).toEqual([1]);
    expect(failures).toEqual(['not an image']);
  });

  it('does not duplicate a job enqueued twice with the same id, before or after it ran', async () => {
    const queue = openQueue();
    const runs: unknown[] = [];
    await queue.enqueue('once', { copy: 1 }, { jobId: 'import-9:1' });
    await queue.enqueue('once', { copy: 2 }, { jobId: 'import-9:1' });
    // An id that reads as an integer is a valid id too.
    await queue.enqueue('once', { copy: 3 }, { jobId: '42' });
    queue.process('once', async (job) => void runs.push(job.data));
    await waitFor(() => runs.length === 2);
    await queue.enqueue('once', { copy: 4 }, { jobId: 'import-9:1' });
    await sleep(300);
    expect(runs).toEqual([{ copy: 1 }, { copy: 3 }]);
  });

  it('runs up to `concurrency` jobs at once', async () => {
    const queue = openQueue();
    let running = 0;
    let peak = 0;
    let finished = 0;
    queue.process(
      'parallel',
      async () => {
        running++;
        peak = Math.max(peak, running);
        await sleep(150);
        running--;
        finished++;
      },
      { concurrency: 2 },
    );
    for (let i = 0; i < 4; i++) await queue.enqueue('parallel', { i }, { jobId: `p-${i}` });
    await waitFor(() => finished === 4);
    expect(peak).toBe(2);
  });

  it('lets an active job finish when it ends within the shutdown bound', async () => {
    const queue = openQueue();
    let finished = false;
    let started = false;
    queue.process('short', async () => {
      started = true;
      await sleep(300);
      finished = true;
    });
    await queue.enqueue('short', {}, { jobId: 'short-1' });
    await waitFor(() => started);
    const before = Date.now();
    await queue.close(5_000);
    expect(finished).toBe(true);
    expect(Date.now() - before).toBeLessThan(2_000);
  });

  it('hands back a job still running at the shutdown bound, within the bound', async () => {
    const queue = openQueue();
    let signal: AbortSignal | undefined;
    queue.process('stuck', async (job) => {
      signal = job.signal;
      await new Promise(() => {}); // never ends, and ignores its signal
    });
    await queue.enqueue('stuck', { n: 1 }, { jobId: 'stuck-1' });
    await waitFor(() => signal !== undefined);
    const before = Date.now();
    await queue.close(1_000);
    const took = Date.now() - before;
    expect(took).toBeGreaterThanOrEqual(500);
    expect(took).toBeLessThan(1_500);
    expect(signal!.aborted).toBe(true);

    if (adapter === 'bullmq') {
      // Handed back, not lost: the next worker gets it at once, still on its first try.
      const next = openQueue();
      const received: Job[] = [];
      next.process('stuck', async (job) => void received.push(job));
      await waitFor(() => received.length === 1);
      expect(received[0]).toMatchObject({ id: 'stuck-1', data: { n: 1 }, attempt: 1 });
    }
  });

  it('refuses new jobs once closing', async () => {
    const queue = openQueue();
    await queue.close(100);
    await expect(queue.enqueue('late', {}, { jobId: 'late-1' })).rejects.toThrow(/closing/);
  });
});

describe('BullMQ job ids', () => {
  it('escapes what BullMQ refuses and reads it back unchanged', () => {
    for (const id of ['import-1:7', '42', '%3A', 'a%b:c:d', '-5', 'plain']) {
      const escaped = toBullmqId(id);
      expect(escaped).not.toContain(':');
      expect(`${Number.parseInt(escaped, 10)}`).not.toBe(escaped);
      expect(fromBullmqId(escaped)).toBe(id);
    }
  });
});
