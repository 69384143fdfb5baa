import { threadId } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { createCpuPool, CpuPoolBusyError, type CpuPool } from '../../src/infra/cpu-pool/index.ts';
import { checksum } from './fixtures/checksum.ts';

const task = new URL('./fixtures/checksum-task.ts', import.meta.url);
type Result = { sum: number; length: number; threadId: number };

describe('cpu pool', () => {
  let pool: CpuPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it('runs a TypeScript task module on a worker thread and moves transferred buffers', async () => {
    pool = createCpuPool({ size: 1 });
    const bytes = new Uint8Array(1_000_000).map((_, i) => i % 251);
    const expected = checksum(bytes);
    const buffer = bytes.buffer;
    const result = await pool.run<Result>(task, { buffer }, [buffer]);
    expect(result).toMatchObject(expected);
    expect(result.threadId).not.toBe(threadId);
    expect(buffer.byteLength).toBe(0); // moved, not copied
  });

  it('runs tasks in parallel, one per thread', async () => {
    pool = createCpuPool({ size: 2 });
    // Warm both threads so thread start-up does not count.
    await Promise.all([0, 1].map(() => pool!.run<Result>(task, { buffer: new ArrayBuffer(8), blockMs: 50 })));
    const started = performance.now();
    const results = await Promise.all([0, 1].map(() => pool!.run<Result>(task, { buffer: new ArrayBuffer(8), blockMs: 400 })));
    const took = performance.now() - started;
    expect(new Set(results.map((r) => r.threadId)).size).toBe(2);
    expect(took).toBeLessThan(750);
  });

  it('refuses work past its bounded queue with a busy error', async () => {
    pool = createCpuPool({ size: 1, maxQueue: 2 });
    const runs = Array.from({ length: 5 }, () => pool!.run<Result>(task, { buffer: new ArrayBuffer(8), blockMs: 100 }));
    const settled = await Promise.allSettled(runs);
    const refused = settled.filter((s) => s.status === 'rejected');
    expect(settled.filter((s) => s.status === 'fulfilled').length).toBeGreaterThanOrEqual(2);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(CpuPoolBusyError);
  });
});
