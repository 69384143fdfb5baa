import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRegradeCommand } from '../../scripts/regrade.ts';
import { cardStream } from '../../src/commands/cards/streams.ts';
import type { EngineVersion } from '../../src/contracts/professional-grades.ts';
import { randomIds, systemClock } from '../../src/infra/clock/clock.ts';
import { createEventStore, type EventStore } from '../../src/infra/event-store/index.ts';
import { createFileImageStore } from '../../src/infra/image-storage/file-image-store.ts';
import { createBullmqQueue, type JobQueue } from '../../src/infra/queue/index.ts';
import { inlineProjections } from '../../src/projections/index.ts';
import { renderSyntheticCard } from '../../src/vision/index.ts';
import { createRegradeJobHandler, measureGradeWith, REGRADE_CARD_JOB, type RegradeCardJob } from '../../src/workers/regrade/regrade-job.ts';
import { createTestDatabase, routeDatabaseKind, type TestDatabase } from '../support/database.ts';
import { redisAvailable, TEST_REDIS_URL } from '../support/services.ts';
import { cardGradedData } from './graded-card-fixture.ts';

// The service mode's regrade: the command enqueues its cards on BullMQ and a worker process (here a second queue in
// this process, with the job handler `npm run worker` registers) shares them; whichever ran a card's job, the command
// reads its progress and outcome from the database and prints the whole table.

const OLD: EngineVersion = { vision: 'old-vision', calibration: 'old' };
const NEW: EngineVersion = { vision: 'new-vision', calibration: 'new' };
const CARDS = 30;
const metadata = { actor: { kind: 'system' as const, id: 'test' }, commandId: 'seed', timestamp: '2026-03-01T12:00:00.000Z' };
const logger = pino({ level: 'silent' });

describe.runIf(await redisAvailable())('npm run regrade on BullMQ with a worker', () => {
  const prefix = `test-regrade-${randomBytes(6).toString('hex')}`;
  const imagesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'regrade-bullmq-'));
  const imageStore = createFileImageStore(imagesDir);
  let database: TestDatabase;
  let store: EventStore;
  const queues: JobQueue[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(await routeDatabaseKind());
    store = createEventStore(database, { inline: inlineProjections });
    const photo = await imageStore.put(await renderSyntheticCard({ pxPerMm: 6, borders: { leftMm: 2.5, rightMm: 3, topMm: 3, bottomMm: 3 }, photo: { noise: 2 } }, 5));
    for (let i = 0; i < CARDS; i++) {
      const data = cardGradedData({ cardId: `bullmq${String(i).padStart(16, '0')}`, owner: `user:00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, images: { front: { hash: photo.hash, contentType: photo.contentType, sourceUrl: null }, back: null }, engine: OLD, savedSeparately: true });
      await store.append(cardStream(data.cardId).streamId, 'card', [{ type: 'CardGraded', data, metadata }], { expected: 'no_stream' });
    }
  }, 60_000);
  afterAll(async () => {
    await Promise.all(queues.map((queue) => queue.close(2_000)));
    const redis = new Redis(TEST_REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    await database?.destroy();
    fs.rmSync(imagesDir, { recursive: true, force: true });
  });

  it('shares the cards with the worker and prints every outcome, whichever process ran it', async () => {
    const open = () => {
      const queue = createBullmqQueue({ url: TEST_REDIS_URL, prefix, logger });
      queues.push(queue);
      return queue;
    };
    // The worker: the handler src/workers/handlers.ts registers, with its own measuring (its own process's memory).
    const worker = open();
    const byWorker: string[] = [];
    const handler = createRegradeJobHandler({ db: database.db, store, imageStore, measure: measureGradeWith({ maxPixels: 50_000_000, engine: async () => NEW }), clock: systemClock });
    worker.process<RegradeCardJob>(
      REGRADE_CARD_JOB,
      async (job) => {
        byWorker.push((await handler.handle(job)).cardId);
      },
      { concurrency: 4, onFailed: handler.onFailed },
    );

    const lines: string[] = [];
    const measure = measureGradeWith({ maxPixels: 50_000_000, engine: async () => NEW });
    const code = await runRegradeCommand([], { database, store, imageStore, queue: open(), measure, engine: async () => NEW, clock: systemClock, ids: randomIds, out: (line) => lines.push(line), concurrency: 1, pollMs: 100 });
    expect(code).toBe(0);
    expect(lines[0]).toBe(`${CARDS} cards graded; 0 already graded by engine new-vision@new, skipped; ${CARDS} to regrade`);
    expect(lines.some((line) => line.startsWith('progress: '))).toBe(true);
    expect(lines.at(-1)).toBe(`${CARDS} regraded`);
    expect(lines.filter((line) => line.includes('(new-vision@new)'))).toHaveLength(CARDS);
    expect(byWorker.length).toBeGreaterThan(0);
    const regraded = await database.db.selectFrom('card_grades').select('engine_vision').where('engine_vision', '=', 'new-vision').execute();
    expect(regraded).toHaveLength(CARDS);
  }, 60_000);
});
