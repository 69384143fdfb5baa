import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../../src/config.ts';
import { AppError } from '../../src/contracts/errors.ts';
import { buildApp } from '../../src/http/app.ts';
import { openPostgres } from '../../src/infra/database/index.ts';
import { createS3ImageStore } from '../../src/infra/image-storage/index.ts';
import { createBullmqQueue } from '../../src/infra/queue/index.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

// The server's own behaviour, below any feature: probes, error bodies, the web app fallback,
// and, on a real spawned process, SIGTERM and the embedded database's lock.

const repoRoot = path.resolve(import.meta.dirname, '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tcg-platform-'));
const webDist = path.join(tmp, 'web');
const logger = pino({ level: 'silent' });

let database: TestDatabase;
let runtime: Runtime;
let app: FastifyInstance;

beforeAll(async () => {
  fs.mkdirSync(path.join(webDist, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Card Grader</title><div id="root"></div>');
  fs.writeFileSync(path.join(webDist, 'assets', 'app-3f2a.js'), 'console.log("app")');
  database = await createTestDatabase('pglite');
  const config = loadConfig({ DATA_DIR: tmp, WEB_DIST_DIR: webDist, CPU_POOL_SIZE: '1', PUBLIC_ORIGIN: 'http://cards.test,http://localhost' });
  runtime = await createRuntime(config, { role: 'api', logger, database });
  app = await buildApp(runtime);
  // Routes that fail in each way a feature can, to see what the one error handler makes of it.
  app.post('/api/test/echo', async (request) => ({ received: request.body }));
  app.get('/api/test/bug', async () => {
    throw new Error('connect ECONNREFUSED 10.0.0.5:5432 password=hunter2');
  });
  app.get('/api/test/refused', async () => {
    throw new AppError('conflict', 'already_saved', 'This card is already in your collection.');
  });
  app.get('/api/test/validated', async (request) => z.object({ page: z.coerce.number().int().min(1) }).parse(request.query));
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await runtime?.close(1_000);
  await database?.destroy();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const sameOrigin = { host: 'cards.test', origin: 'http://cards.test' };

describe('probes', () => {
  it('/healthz answers while the process lives', async () => {
    const response = await app.inject({ url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('/readyz answers 200 when the database, the queue and the image store answer', async () => {
    const response = await app.inject({ url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready', database: 'ok', queue: 'ok', images: 'ok' });
  });

  it('/readyz answers 503 naming what is down, without the reason', async () => {
    // Real adapters pointed at ports where nothing listens.
    const deadDatabase = openPostgres({ url: 'postgres://postgres@127.0.0.1:1/none' });
    const deadQueue = createBullmqQueue({ url: 'redis://127.0.0.1:1', logger });
    const deadImages = createS3ImageStore({ bucket: 'images', prefix: '', endpoint: 'http://127.0.0.1:1', region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'x', secretAccessKey: 'y' }, maxAttempts: 1 });
    const broken = await buildApp({ ...runtime, database: deadDatabase, queue: deadQueue, imageStore: deadImages });
    try {
      const response = await broken.inject({ url: '/readyz' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ error: 'Not ready: the database, the job queue and the image store do not answer.', code: 'not_ready' });
      expect(response.body).not.toContain('ECONNREFUSED');
    } finally {
      deadImages.close?.();
      await broken.close();
      await deadQueue.close(200);
      await deadDatabase.close();
    }
  });
});

describe('error bodies', () => {
  it('refuses malformed JSON with 400 and a stable code', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/test/echo', headers: { ...sameOrigin, 'content-type': 'application/json' }, payload: '{"cardName": ' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'The request body is not valid JSON.', code: 'invalid_json' });
  });

  it('answers an unknown API route with a 404 body, whatever the method or Accept', async () => {
    for (const request of [
      { method: 'GET' as const, url: '/api/nope' },
      { method: 'GET' as const, url: '/api/nope?x=1', headers: { accept: 'text/html' } },
      { method: 'DELETE' as const, url: '/api/nope', headers: sameOrigin },
    ]) {
      const response = await app.inject(request);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'There is no such route.', code: 'route_not_found' });
    }
  });

  it('maps an AppError to its status, message and code', async () => {
    const response = await app.inject({ url: '/api/test/refused' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: 'This card is already in your collection.', code: 'already_saved' });
  });

  it('turns a zod failure into a 400 naming the field', async () => {
    const response = await app.inject({ url: '/api/test/validated?page=0' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_request', error: expect.stringMatching(/^page: /) });
  });

  it('hides the internals of a 5xx', async () => {
    const response = await app.inject({ url: '/api/test/bug' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'Something went wrong on our side. Please try again.', code: 'internal_error' });
    expect(response.body).not.toMatch(/hunter2|ECONNREFUSED|at /);
  });
});

describe('web app', () => {
  it('serves index.html for page requests on client routes', async () => {
    for (const url of ['/', '/collection', '/card/abc123?tab=grades']) {
      const response = await app.inject({ url, headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<title>Card Grader</title>');
    }
  });

  it('serves fingerprinted assets with a long cache life', async () => {
    const response = await app.inject({ url: '/assets/app-3f2a.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('console.log("app")');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers 404 JSON, not the app, to requests that do not ask for HTML', async () => {
    const missingAsset = await app.inject({ url: '/assets/gone.js' });
    expect(missingAsset.statusCode).toBe(404);
    expect(missingAsset.json()).toMatchObject({ code: 'route_not_found' });
    const post = await app.inject({ method: 'POST', url: '/collection', headers: { ...sameOrigin, accept: 'text/html' } });
    expect(post.statusCode).toBe(404);
  });
});

describe('the server process', () => {
  const node = process.execPath;
  const dataDir = path.join(tmp, 'process-data');
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    DATABASE_URL: '',
    REDIS_URL: '',
    LOG_LEVEL: 'info',
    CPU_POOL_SIZE: '1',
    SHUTDOWN_TIMEOUT_MS: '3000',
    WEB_DIST_DIR: webDist,
  };

  function start(): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
    const child = spawn(node, ['src/main.ts'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, output: () => output, exited };
  }

  async function listeningAddress(output: () => string, timeoutMs: number): Promise<string> {
    const started = Date.now();
    for (;;) {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output());
      if (match) return match[1]!;
      if (Date.now() - started > timeoutMs) throw new Error(`server did not start:\n${output()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('refuses a second process on the same data folder, and stops on SIGTERM within its bound', async () => {
    const first = start();
    try {
      const url = await listeningAddress(first.output, 45_000);
      expect((await fetch(`${url}/readyz`)).status).toBe(200);

      const second = start();
      const secondCode = await second.exited;
      expect(secondCode).toBe(1);
      expect(second.output()).toContain(`Cannot start: The database in ${path.join(dataDir, 'pg')} is in use by another process (pid ${first.child.pid})`);
      expect(second.output()).not.toMatch(/\n\s+at /); // a sentence, not a stack trace

      const signalledAt = Date.now();
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      expect(Date.now() - signalledAt).toBeLessThan(3_000);
      expect(first.output()).toContain('"msg":"stopped"');
      expect(fs.existsSync(path.join(dataDir, 'pg', '.lock'))).toBe(false);
    } finally {
      first.child.kill('SIGKILL');
    }
  }, 90_000);
});
