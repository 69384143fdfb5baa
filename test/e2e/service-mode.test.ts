import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as XLSX from '@e965/xlsx';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_CARDS_DIR } from '../../src/commands/cards/restore-sample-cards.ts';
import { createS3ImageStore, type ImageStore } from '../../src/infra/image-storage/index.ts';
import { postgresAvailable, redisAvailable } from '../support/services.ts';
import { SERVICE_METRICS_TOKEN, startServiceMode, type RunningProcess, type ServiceMode } from './support/service-mode.ts';

// The service mode proven with real processes (issue 19): two API servers and two queue workers on one PostgreSQL,
// one Redis and one S3 server on loopback, each process with a data folder of its own. One set of processes for the
// whole file: starting them is the slow part.

const available = (await postgresAvailable()) && (await redisAvailable());
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface CardResult {
  id: string;
  imageUrl: string;
  annotatedImageUrl: string;
}

describe.runIf(available)('service mode: two API processes, two workers, PostgreSQL, Redis and an S3 store', () => {
  let mode: ServiceMode;
  let apiA: RunningProcess;
  let apiB: RunningProcess;
  let workers: RunningProcess[];
  let bucket: ImageStore;
  let photo: Buffer;

  beforeAll(async () => {
    mode = await startServiceMode();
    let worker1: RunningProcess, worker2: RunningProcess;
    [apiA, apiB, worker1, worker2] = await Promise.all([mode.startApi('api-a'), mode.startApi('api-b'), mode.startWorker('worker-1'), mode.startWorker('worker-2')]);
    workers = [worker1, worker2];
    bucket = createS3ImageStore(mode.s3.storeOptions());
    photo = await readFile(new URL('1-gem-mint.jpg', SAMPLE_CARDS_DIR));
  });
  afterAll(async () => {
    bucket?.close?.();
    await mode?.close();
  });

  /** The sample photo with `n` appended after its end: another file (another hash), the same picture. */
  const variant = (n: number) => Buffer.concat([photo, Buffer.from(`variant ${n}`)]);

  async function grade(api: RunningProcess, front: Buffer, cookie?: string): Promise<{ status: number; body: Record<string, unknown>; cookie: string }> {
    const form = new FormData();
    form.append('frontImage', new Blob([new Uint8Array(front)], { type: 'image/jpeg' }), 'front.jpg');
    const response = await fetch(`${api.baseUrl}/api/grade-card`, { method: 'POST', body: form, headers: { origin: api.baseUrl, ...(cookie ? { cookie } : {}) } });
    const setCookie = /sid=[^;]+/.exec(response.headers.get('set-cookie') ?? '')?.[0];
    return { status: response.status, body: (await response.json()) as Record<string, unknown>, cookie: setCookie ?? cookie ?? '' };
  }

  async function image(api: RunningProcess, url: string): Promise<{ status: number; bytes: Buffer; type: string | null }> {
    const response = await fetch(`${api.baseUrl}${url}`);
    return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), type: response.headers.get('content-type') };
  }

  it('shows a card graded on one API process, photo and annotated picture, on the other', async () => {
    const front = variant(0);
    const graded = await grade(apiA, front);
    expect(graded.status).toBe(200);
    const card = graded.body as unknown as CardResult;

    const shared = await fetch(`${apiB.baseUrl}/api/card/${card.id}`);
    expect(shared.status).toBe(200);
    expect(((await shared.json()) as CardResult).imageUrl).toBe(card.imageUrl);
    const collection = await fetch(`${apiB.baseUrl}/api/my-cards`, { headers: { cookie: graded.cookie } });
    expect(((await collection.json()) as CardResult[]).map((c) => c.id)).toEqual([card.id]);

    const photoOnB = await image(apiB, card.imageUrl);
    expect(photoOnB).toMatchObject({ status: 200, type: 'image/jpeg' });
    expect(photoOnB.bytes.equals(front)).toBe(true);
    const annotatedOnB = await image(apiB, card.annotatedImageUrl);
    const annotatedOnA = await image(apiA, card.annotatedImageUrl);
    expect(annotatedOnB).toMatchObject({ status: 200, type: 'image/png' });
    expect(annotatedOnB.bytes.equals(annotatedOnA.bytes)).toBe(true);
    // Nothing went to either process's own disk: the bucket holds both, under their hashes.
    expect(await bucket.has(sha256(front))).toBe(true);
    expect(card.annotatedImageUrl).toContain(sha256(annotatedOnB.bytes));

    const part = await fetch(`${apiB.baseUrl}${card.imageUrl}`, { headers: { range: 'bytes=2-9' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(front.subarray(2, 10))).toBe(true);
  });

  it('loses nothing when the image store stops and comes back mid-traffic, and says so while it is down', async () => {
    const apis = [apiA, apiB];
    // Traffic on both processes; the store stops while it is in flight, and comes back a moment later.
    const traffic = Array.from({ length: 6 }, (_, i) => grade(apis[i % 2]!, variant(10 + i)));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await mode.s3.stop();

    // While it is down: grading and image reads answer 503 with a plain message, readiness names the store.
    const refused = await grade(apiB, variant(99));
    expect(refused).toMatchObject({ status: 503, body: { code: 'image_store_unavailable', error: 'Photo storage is not answering right now. Please try again in a minute.' } });
    expect((await image(apiA, `/api/images/${sha256(variant(0))}`)).status).toBe(503);
    const notReady = await fetch(`${apiA.baseUrl}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toEqual({ error: 'Not ready: the image store does not answer.', code: 'not_ready' });

    await mode.s3.start();
    const outcomes = await Promise.all(traffic);
    for (const outcome of outcomes) expect([200, 503]).toContain(outcome.status);

    // Back by itself: the refused photos go through now, and every card either process recorded shows its pictures.
    const retried = await Promise.all(outcomes.map((o, i) => (o.status === 200 ? o : grade(apis[i % 2]!, variant(10 + i)))));
    expect(retried.map((o) => o.status)).toEqual(retried.map(() => 200));
    expect((await grade(apiB, variant(99))).status).toBe(200);
    expect((await fetch(`${apiA.baseUrl}/readyz`)).status).toBe(200);
    for (const [i, outcome] of retried.entries()) {
      const card = outcome.body as unknown as CardResult;
      for (const api of apis) {
        const front = await image(api, card.imageUrl);
        expect(front.status).toBe(200);
        expect(front.bytes.equals(variant(10 + i))).toBe(true);
        expect((await image(api, card.annotatedImageUrl)).status).toBe(200);
      }
    }

    // No event names an image the store does not have (the image is stored before the event).
    const { rows } = await sql<{ data: { images: { front: { hash: string } }; annotatedImages: { front: string } } }>`
      select data from es_events where event_type = 'CardGraded'`.execute(mode.database.db);
    expect(rows.length).toBe(1 + 6 + 1);
    for (const { data } of rows) {
      const event = typeof data === 'string' ? JSON.parse(data) : data;
      expect(await bucket.has(event.images.front.hash)).toBe(true);
      expect(await bucket.has(event.annotatedImages.front)).toBe(true);
    }
  });

  it('lets an operator scrape each worker\'s own metrics as well as the API\'s', async () => {
    for (const worker of workers) {
      const port = /metrics at http:\/\/127\.0\.0\.1:(\d+)\/metrics/.exec(worker.output())?.[1];
      expect(port, `${worker.name} logs where its metrics are`).toBeDefined();
      const scraped = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${SERVICE_METRICS_TOKEN}` } });
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('process_resident_memory_bytes');
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(401);
    }
    expect((await fetch(`${apiA.baseUrl}/metrics`, { headers: { authorization: `Bearer ${SERVICE_METRICS_TOKEN}` } })).status).toBe(200);
  });

  it('runs a bulk import on the workers, one SIGKILLed mid-import: the other finishes every row exactly once, photos on both API processes', async () => {
    // The rows' photos, behind a loopback server (each a file of its own).
    const rows = 10;
    const images = http.createServer((request, response) => {
      const n = Number(/^\/card-(\d+)\.jpg$/.exec(request.url ?? '')?.[1] ?? NaN);
      if (!Number.isInteger(n)) return response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'image/jpeg' }).end(variant(100 + n));
    });
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
    try {
      const registered = await fetch(`${apiA.baseUrl}/api/agscard/register`, {
        method: 'POST',
        headers: { origin: apiA.baseUrl, 'content-type': 'application/json' },
        body: JSON.stringify({ first_name: 'Bulk', last_name: 'Importer', email: `bulk-${Date.now()}@example.com`, phone: '5551234567', password: 'Secret123', password_confirmation: 'Secret123', is_marketing_notifications_enabled: false }),
      });
      expect(registered.status).toBe(201);
      const cookie = /sid=[^;]+/.exec(registered.headers.get('set-cookie') ?? '')![0];

      const book = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['FrontImage', 'BackImage', 'ItemID'], ...Array.from({ length: rows }, (_, i) => [`${origin}/card-${i}.jpg`, '', `ITEM-${i}`])]), 'Cards');
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer)]), 'cards.xlsx');
      const uploaded = await fetch(`${apiB.baseUrl}/api/ultra-fast-upload`, { method: 'POST', body: form, headers: { origin: apiB.baseUrl, cookie } });
      expect(uploaded.status).toBe(200);
      const { importId } = (await uploaded.json()) as { importId: string };

      const record = async () => (await (await fetch(`${apiA.baseUrl}/api/imports/${importId}`, { headers: { cookie } })).json()) as { status: string; processedCards: number; successfulCards: number; failedCards: number; duplicateCards: number };
      // Both workers at work; then the first dies without a word, its rows in flight.
      await expect.poll(async () => (await record()).processedCards, { timeout: 30_000, interval: 50 }).toBeGreaterThanOrEqual(2);
      workers[0]!.child.kill('SIGKILL');
      await workers[0]!.exited;
      await expect.poll(async () => (await record()).status, { timeout: 40_000, interval: 100 }).toBe('completed');
      expect(await record()).toMatchObject({ processedCards: rows, successfulCards: rows, failedCards: 0, duplicateCards: 0 });

      // Exactly one outcome per row, and no card graded twice.
      const { rows: outcomes } = await sql<{ stream_id: string; n: number }>`
        select stream_id, count(*)::int as n from es_events
        where stream_id like ${`import-row-${importId}-%`} and event_type in ('ImportRowGraded', 'ImportRowDuplicate', 'ImportRowFailed')
        group by stream_id`.execute(mode.database.db);
      expect(outcomes.length).toBe(rows);
      expect(outcomes.every((o) => o.n === 1)).toBe(true);
      const collection = (await (await fetch(`${apiB.baseUrl}/api/my-cards`, { headers: { cookie } })).json()) as CardResult[];
      expect(collection.length).toBe(rows);
      const { rows: graded } = await sql<{ id: string; n: number }>`
        select data->>'cardId' as id, count(*)::int as n from es_events
        where event_type = 'CardGraded' and data->>'cardId' in (${sql.join(collection.map((c) => c.id))}) group by 1`.execute(mode.database.db);
      expect(graded.length).toBe(rows);
      expect(graded.every((g) => g.n === 1)).toBe(true);
      // The photos the workers stored show on both API processes.
      for (const card of collection) {
        for (const api of [apiA, apiB]) expect((await image(api, card.imageUrl)).status).toBe(200);
      }
    } finally {
      images.closeAllConnections();
      await new Promise<void>((resolve) => images.close(() => resolve()));
    }
  });
});
