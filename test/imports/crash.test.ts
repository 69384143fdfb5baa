import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { postgresAvailable, redisAvailable, TEST_DATABASE_URL, TEST_REDIS_URL } from '../support/services.ts';
import { samplePhoto, startCardsApp, type CardsHarness } from '../http/cards-harness.ts';
import { upload } from './imports-harness.ts';

// A crash in the middle of an import, on both queue adapters: a 200-row import (distinct card photos, repeats of
// them, broken links), the process working on its rows killed with SIGKILL while cards are being graded, started
// again: every row ends with exactly one outcome, no card is graded twice, no portfolio card is added twice, and
// the import completes. In-process: the server itself is killed and restarted (start-up enqueues the rows without
// an outcome). BullMQ: a worker process is killed and another started (its jobs are taken back once its hold lapses).

const repoRoot = path.resolve(import.meta.dirname, '../..');
const node = path.join(repoRoot, 'node_modules/.bin/node');
const ROWS = 200;
const DISTINCT = 12;

const enabled = (await postgresAvailable()) && (await redisAvailable());

interface Child {
  process: ChildProcess;
  output: () => string;
  exited: Promise<void>;
}

function spawnNode(script: string, env: NodeJS.ProcessEnv): Child {
  const child = spawn(node, [script], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { process: child, output: () => output, exited };
}

async function waitFor<T>(what: string, read: () => Promise<T | null | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    if (process.env.CRASH_TRACE) console.log(what, new Date().toISOString());
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function photoServer(photos: Buffer[]) {
  const server = http.createServer((request, response) => {
    const match = /^\/card-(\d+)\.jpg(\?.*)?$/.exec(request.url ?? '');
    const photo = match ? photos[Number(match[1])] : undefined;
    if (!photo) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(photo.length) }).end(photo);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Twelve distinct photos: the five samples, and re-encodings of them (other bytes, the same card). */
async function distinctPhotos(): Promise<Buffer[]> {
  const samples = await Promise.all(([1, 2, 3, 4, 5] as const).map((n) => samplePhoto(n)));
  return Promise.all(Array.from({ length: DISTINCT }, (_, i) => (i < 5 ? samples[i]! : sharp(samples[i % 5]!).jpeg({ quality: 90 - i }).toBuffer())));
}

/** 200 rows: each photo once, repeats of them, and broken links, mixed. */
function csvRows(origin: string): string {
  const lines = ['FrontImage,ItemID'];
  for (let row = 0; row < ROWS; row++) {
    if (row % 16 === 0 && row / 16 < DISTINCT) lines.push(`${origin}/card-${row / 16}.jpg,ITEM-${row}`);
    else if (row % 3 === 0) lines.push(`${origin}/missing-${row}.jpg,`);
    else lines.push(`${origin}/card-${row % 5}.jpg?copy,`);
  }
  return `${lines.join('\n')}\n`;
}

async function checkExactlyOnce(db: TestDatabase['db'], importId: string) {
  const record = await db.selectFrom('imports').selectAll().where('id', '=', importId).executeTakeFirstOrThrow();
  expect(record).toMatchObject({ status: 'completed', total_cards: ROWS, processed_cards: ROWS, progress: 100 });
  expect(record.successful_cards + record.failed_cards + record.duplicate_cards).toBe(ROWS);
  const perRow = await sql<{ n: number }>`select count(*)::int as n from es_events where stream_id like ${`import-row-${importId}-%`} group by stream_id`.execute(db);
  expect(perRow.rows).toHaveLength(ROWS);
  expect(perRow.rows.every((r) => r.n === 1)).toBe(true);
  const graded = await sql<{ events: number; cards: number }>`select count(*)::int as events, count(distinct stream_id)::int as cards from es_events where event_type = 'CardGraded'`.execute(db);
  expect(graded.rows[0]).toEqual({ events: DISTINCT, cards: DISTINCT });
  expect(record.successful_cards).toBe(DISTINCT);
  const added = await sql<{ events: number; cards: number }>`select count(*)::int as events, count(distinct stream_id)::int as cards from es_events where event_type = 'PortfolioCardAdded'`.execute(db);
  expect(added.rows[0]).toEqual({ events: record.successful_cards, cards: record.successful_cards });
  const rows = await db.selectFrom('import_cards').select(['status']).where('import_id', '=', importId).execute();
  expect(rows.filter((r) => r.status === 'pending')).toEqual([]);
}

describe.runIf(enabled)('an import survives a SIGKILL', () => {
  let photos: Awaited<ReturnType<typeof photoServer>>;
  let file: Buffer;
  beforeAll(async () => {
    photos = await photoServer(await distinctPhotos());
    file = Buffer.from(csvRows(photos.origin));
  });
  afterAll(async () => {
    await photos?.close();
  });

  it('on BullMQ: a worker killed mid-import, another started', async () => {
    const prefix = `imp-crash-${randomBytes(4).toString('hex')}`;
    const h: CardsHarness = await startCardsApp('postgres', { REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: prefix });
    const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(h.database.db)).rows[0]!.schema;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'import-crash-')),
      DATABASE_URL: `${TEST_DATABASE_URL}?options=${encodeURIComponent(`-c search_path=${schema},public`)}`,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: prefix,
      ALLOW_LOOPBACK_IMAGE_URLS: 'true',
      CPU_POOL_SIZE: '2',
      IMPORT_JOB_LOCK_MS: '2000',
      IMPORT_SWEEP_MS: '3000',
      IMPORT_RETRY_DELAY_MS: '50',
    };
    let worker = spawnNode('src/workers/main.ts', env);
    try {
      const { browser } = await h.registered();
      const started = await upload(browser, { bytes: file, filename: 'crash.csv' });
      expect(started.statusCode, started.body).toBe(200);
      const importId = started.json().importId as string;
      const progress = () => h.database.db.selectFrom('imports').select(['successful_cards', 'processed_cards', 'status']).where('id', '=', importId).executeTakeFirstOrThrow();
      // Killed while cards are being graded: some graded, not all.
      await waitFor('the first graded cards', async () => (await progress()).successful_cards >= 2);
      worker.process.kill('SIGKILL');
      await worker.exited;
      const atKill = await progress();
      expect(atKill.successful_cards).toBeLessThan(DISTINCT);
      worker = spawnNode('src/workers/main.ts', env);
      await waitFor('the import to complete', async () => (await progress()).status === 'completed', 90_000).catch(async (error: unknown) => {
        const pending = await h.database.db.selectFrom('import_cards').select(['row_number', 'status']).where('import_id', '=', importId).where('status', '=', 'pending').execute();
        console.log(JSON.stringify(await progress()), JSON.stringify(pending.slice(0, 10)), worker.output().slice(-3000));
        throw error;
      });
      await checkExactlyOnce(h.database.db, importId);
    } finally {
      worker.process.kill('SIGTERM');
      await worker.exited;
      await h.close();
      const redis = new Redis(TEST_REDIS_URL);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  }, 180_000);

  it('in-process: the server killed mid-import and started again', async () => {
    const database = await createTestDatabase('postgres');
    const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db)).rows[0]!.schema;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'import-crash-')),
      DATABASE_URL: `${TEST_DATABASE_URL}?options=${encodeURIComponent(`-c search_path=${schema},public`)}`,
      ALLOW_LOOPBACK_IMAGE_URLS: 'true',
      CPU_POOL_SIZE: '2',
      IMPORT_RETRY_DELAY_MS: '50',
      AUTH_RATE_LIMIT_PER_ADDRESS: '1000',
    };
    delete env.REDIS_URL;
    const startServer = async () => {
      const child = spawnNode('src/main.ts', env);
      const url = await waitFor('the server', async () => /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(child.output())?.[1], 60_000);
      return { child, url };
    };
    let server = await startServer();
    try {
      const origin = server.url;
      let cookie = '';
      const call = async (url: string, init: RequestInit = {}) => {
        const response = await fetch(`${server.url}${url}`, { ...init, headers: { ...(init.headers as Record<string, string>), origin, cookie } });
        const set = response.headers.getSetCookie().find((c) => c.startsWith('sid='));
        if (set) cookie = set.split(';')[0]!;
        return response;
      };
      const registered = await call('/api/agscard/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ first_name: 'Misty', last_name: 'Waters', email: `crash-${Date.now()}@example.com`, phone: '5551234567', password: 'Secret123', password_confirmation: 'Secret123', is_marketing_notifications_enabled: false }),
      });
      expect(registered.status).toBe(201);
      const form = new FormData();
      form.append('file', new Blob([file], { type: 'text/csv' }), 'crash.csv');
      const started = await call('/api/ultra-fast-upload', { method: 'POST', body: form });
      expect(started.status, await started.clone().text()).toBe(200);
      const importId = ((await started.json()) as { importId: string }).importId;
      const progress = () => database.db.selectFrom('imports').select(['successful_cards', 'processed_cards', 'status']).where('id', '=', importId).executeTakeFirstOrThrow();
      await waitFor('the first graded cards', async () => (await progress()).successful_cards >= 2);
      server.child.process.kill('SIGKILL');
      await server.child.exited;
      expect((await progress()).successful_cards).toBeLessThan(DISTINCT);
      server = await startServer();
      await waitFor('the import to complete', async () => (await progress()).status === 'completed', 90_000);
      await checkExactlyOnce(database.db, importId);
    } finally {
      server.child.process.kill('SIGTERM');
      await server.child.exited;
      await database.destroy();
    }
  }, 180_000);
});
