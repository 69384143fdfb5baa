import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { buildApp } from '../../src/http/app.ts';
import { startMetricsServer } from '../../src/infra/metrics/metrics-server.ts';
import { timedJobHandler } from '../../src/infra/metrics/metrics.ts';
import { createInProcessQueue, PermanentJobError } from '../../src/infra/queue/index.ts';
import { WrongExpectedVersionError } from '../../src/infra/event-store/index.ts';
import { asyncProjections } from '../../src/projections/index.ts';
import { startProjectionRunners } from '../../src/projections/runner/index.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { samplePhoto, startCardsApp, startPhotoServer, type CardsHarness } from './cards-harness.ts';

// GET /metrics through the real app: refused to all but the token's bearer, absent without the setting, and its
// figures move as requests are answered, cards graded, images fetched, events appended, jobs run and projections
// catch up.

const TOKEN = 'operator-metrics-token-0123456789';
const bearer = { authorization: `Bearer ${TOKEN}` };

/** The value of one series in Prometheus's text format; 0 when it is not there yet. */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = /\{(.*)\}/.exec(line)?.[1] ?? '';
    const found = Object.fromEntries([...labelText.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

async function scrape(app: FastifyInstance): Promise<string> {
  const response = await app.inject({ url: '/metrics', headers: bearer });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.body;
}

describe('metrics', () => {
  let h: CardsHarness;
  beforeAll(async () => {
    h = await startCardsApp('pglite', { METRICS_TOKEN: TOKEN });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('answers the token\'s bearer only, and does not exist without the setting', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token-wrong-token' }, { authorization: TOKEN }, { authorization: `Basic ${TOKEN}` }]) {
      const refused = await h.app.inject({ url: '/metrics', headers });
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ code: 'metrics_token_required' });
      expect(refused.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(refused.body).not.toContain('http_requests_total');
    }
    expect((await h.app.inject({ url: '/api/metrics', headers: bearer })).statusCode).toBe(404);
    // Never a cookie: the route is outside the API's sessions.
    expect((await h.app.inject({ url: '/metrics', headers: bearer })).headers['set-cookie']).toBeUndefined();

    const off = await startCardsApp('pglite');
    try {
      const response = await off.app.inject({ url: '/metrics', headers: bearer });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'route_not_found' });
    } finally {
      await off.close();
    }
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/at least 16 characters/);
  });

  it('counts requests and their latency by route pattern and status', async () => {
    const before = await scrape(h.app);
    const browser = h.browser();
    await browser.get('/api/leaderboard');
    await browser.get('/api/leaderboard');
    await browser.get('/api/card/AAAAAAAAAAAAAAAAAAAAAA');
    await browser.get('/api/card/BBBBBBBBBBBBBBBBBBBBBB');
    await browser.get('/no/such/route');
    const after = await scrape(h.app);
    const moved = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(moved('http_requests_total', { method: 'GET', route: '/api/leaderboard', status: '200' })).toBe(2);
    expect(moved('http_request_duration_seconds_count', { method: 'GET', route: '/api/leaderboard', status: '200' })).toBe(2);
    expect(moved('http_requests_total', { method: 'GET', route: '/api/card/:id', status: '404' })).toBe(2);
    expect(moved('http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    // Paths never become labels.
    expect(after).not.toContain('AAAAAAAAAAAAAAAAAAAAAA');
    expect(after).not.toContain('/no/such/route');
  });

  it('times grading by stage, counts image downloads by outcome and appends by stream type, and conflicts', async () => {
    const photo = await samplePhoto(3);
    const photos = await startPhotoServer({ 'card.jpg': photo });
    try {
      const before = await scrape(h.app);
      const { browser } = await h.registered();
      expect((await browser.grade([['frontImageUrl', `${photos.origin}/card.jpg`]])).statusCode).toBe(200);
      expect((await browser.grade([['frontImageUrl', `${photos.origin}/missing.jpg`]])).statusCode).toBeGreaterThanOrEqual(400);
      await expect(h.runtime.eventStore.append(`metrics-conflict-${Date.now()}`, 'metrics-test', [{ type: 'Tried', data: {}, metadata: { actor: { kind: 'system', id: 'test' }, commandId: 'c', timestamp: new Date().toISOString() } }], { expected: 3 })).rejects.toBeInstanceOf(WrongExpectedVersionError);

      const after = await scrape(h.app);
      const moved = (name: string, labels: Record<string, string> = {}) => valueOf(after, name, labels) - valueOf(before, name, labels);
      for (const stage of ['decode', 'measure', 'grade', 'identify', 'annotate', 'total']) {
        expect(moved('grading_stage_duration_seconds_count', { stage }), stage).toBeGreaterThanOrEqual(1);
      }
      expect(moved('grading_stage_duration_seconds_sum', { stage: 'total' })).toBeGreaterThan(0);
      expect(moved('image_downloads_total', { outcome: 'ok' })).toBe(1);
      const refusals = [...after.matchAll(/^image_downloads_total\{outcome="([^"]+)"\}/gm)].map((m) => m[1]).filter((o) => o !== 'ok');
      expect(refusals.length).toBeGreaterThan(0);
      expect(refusals.reduce((sum, outcome) => sum + moved('image_downloads_total', { outcome: outcome! }), 0)).toBe(1);
      expect(moved('event_store_appended_events_total', { stream_type: 'card' })).toBeGreaterThanOrEqual(1);
      expect(moved('event_store_appended_events_total', { stream_type: 'user' })).toBeGreaterThanOrEqual(1);
      expect(moved('event_store_append_conflicts_total', { stream_type: 'metrics-test' })).toBe(1);
    } finally {
      await photos.close();
    }
  });
});

describe('metrics of a process that runs no projection runners', () => {
  let database: TestDatabase;
  let runtime: Runtime;
  let app: FastifyInstance;
  let dataDir: string;
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    dataDir = mkdtempSync(path.join(tmpdir(), 'metrics-test-'));
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, CPU_POOL_SIZE: '1', METRICS_TOKEN: TOKEN, PUBLIC_ORIGIN: 'http://metrics.test,http://localhost' });
    // A worker-role runtime starts no runners: the async projections fall behind until the test starts them.
    runtime = await createRuntime(config, { role: 'worker', database });
    app = await buildApp(runtime);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await runtime?.close(2_000);
    await database?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows projection lag growing with appends and falling to zero when the runners catch up', async () => {
    const lag = async () => valueOf(await scrape(app), 'projection_lag_events', { projection: 'leaderboard', kind: 'async' });
    const start = await lag();
    for (let i = 0; i < 3; i++) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/agscard/register',
        headers: { host: 'metrics.test', origin: 'http://metrics.test' },
        remoteAddress: `10.9.0.${i + 1}`,
        payload: { first_name: 'Lag', last_name: 'Tester', email: `lag${i}-${Date.now()}@example.com`, phone: '5551234567', password: 'Secret123', password_confirmation: 'Secret123' },
      });
      expect(response.statusCode).toBe(201);
    }
    expect(await lag()).toBe(start + 3);
    expect(valueOf(await scrape(app), 'projection_lag_events', { projection: 'feedback', kind: 'inline' })).toBe(0);

    const stop = await startProjectionRunners(database, runtime.eventStore, asyncProjections, { pollIntervalMs: 50 });
    try {
      await expect.poll(lag, { timeout: 10_000 }).toBe(0);
    } finally {
      await stop();
    }
  });

  it('shows jobs waiting and active by name, and those that failed for good', async () => {
    const jobs = async () => {
      const text = await scrape(app);
      return {
        waiting: valueOf(text, 'job_queue_jobs', { job: 'metrics-test', state: 'waiting' }),
        active: valueOf(text, 'job_queue_jobs', { job: 'metrics-test', state: 'active' }),
        failed: valueOf(text, 'job_queue_failed_total', { job: 'metrics-test' }),
      };
    };
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    runtime.queue.process<{ fail: boolean }>(
      'metrics-test',
      async (job) => {
        if (job.data.fail) throw new PermanentJobError('cannot ever work');
        await released;
      },
      { concurrency: 1 },
    );
    const failedBefore = (await jobs()).failed;
    await runtime.queue.enqueue('metrics-test', { fail: false }, { jobId: 'a' });
    await runtime.queue.enqueue('metrics-test', { fail: true }, { jobId: 'b' });
    expect(await jobs()).toEqual({ waiting: 1, active: 1, failed: failedBefore });
    release();
    await expect.poll(jobs).toEqual({ waiting: 0, active: 0, failed: failedBefore + 1 });
  });
});

describe('worker metrics', () => {
  it('serves a worker\'s own figures on METRICS_PORT to the token\'s bearer only: jobs run by outcome and their durations', async () => {
    const logger = pino({ level: 'silent' });
    const server = await startMetricsServer({ host: '127.0.0.1', port: 0, token: TOKEN, logger });
    const queue = createInProcessQueue({ logger });
    try {
      const url = `http://127.0.0.1:${server.port}/metrics`;
      const count = async (outcome: string) => valueOf(await (await fetch(url, { headers: bearer })).text(), 'job_duration_seconds_count', { job: 'worker-metrics-test', outcome });
      const [okBefore, failedBefore] = [await count('ok'), await count('failed')];
      queue.process<{ fail: boolean }>(
        'worker-metrics-test',
        timedJobHandler('worker-metrics-test', async (job) => {
          if (job.data.fail) throw new PermanentJobError('cannot ever work');
        }),
      );
      for (const [id, fail] of [['w1', false], ['w2', false], ['w3', true]] as const) await queue.enqueue('worker-metrics-test', { fail }, { jobId: id });
      await expect.poll(async () => [await count('ok'), await count('failed')]).toEqual([okBefore + 2, failedBefore + 1]);

      const scraped = await fetch(url, { headers: bearer });
      expect(scraped.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(await scraped.text()).toContain('process_cpu_seconds_total');
      for (const headers of [{}, { authorization: 'Bearer wrong-token-0123456789' }]) {
        const refused = await fetch(url, { headers });
        expect(refused.status).toBe(401);
        expect(await refused.json()).toEqual({ error: 'The metrics are for operators: send the metrics token as a Bearer token.', code: 'metrics_token_required' });
      }
      expect((await fetch(`http://127.0.0.1:${server.port}/other`, { headers: bearer })).status).toBe(404);
    } finally {
      await queue.close(500);
      await server.close();
    }
  });
});
