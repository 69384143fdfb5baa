// npm run bench:api: the card API through a real listening server, each figure next to a baseline measured in the
// same run:
//   upload: POST /api/grade-card with a 12-megapixel front and back (multipart), from the first byte sent to the
//           result, median of BENCH_UPLOADS (default 20), each for a new guest so every upload is really graded;
//           baseline: the bare grading service (decode, measure in the CPU pool, grade, identify, annotate) on
//           the same photos, run alternately with the uploads. Embedded database (PGlite) only: the database's
//           part is one small append.
//   my-cards: GET /api/my-cards for a collection of BENCH_CARDS (default 5000) cards, BENCH_CONNECTIONS (default 32)
//           connections each sending requests back to back, median and p99; baseline: GET /healthz under the same
//           load. Then the cold read the cache cannot serve: one request right after each of 10 changes to the
//           collection. On PGlite and on PostgreSQL (BENCH_DATABASE_URL, default TEST_DATABASE_URL or the machine's).
// The load comes from a worker thread, so client and server do not share an event loop.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { pino } from 'pino';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import type { CardGraded } from '../src/domain/cards/index.ts';
import { buildApp } from '../src/http/app.ts';
import { migrateToLatest, openPglite, openPostgres, type Database } from '../src/infra/database/index.ts';
import { asyncProjections } from '../src/projections/index.ts';
import { projectionStatus } from '../src/projections/runner/index.ts';
import { createRuntime, type Runtime } from '../src/runtime.ts';
import { renderSyntheticCard } from '../src/vision/index.ts';

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 20);
const CARDS = Number(process.env.BENCH_CARDS ?? 5_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const REQUESTS_PER_CONNECTION = Number(process.env.BENCH_REQUESTS_PER_CONNECTION ?? 10);
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** 12 megapixels: the card at 33 px/mm fills 75% of a 3098 × 3872 photo. */
const TWELVE_MEGAPIXEL_PX_PER_MM = 33;

interface LoadJob {
  port: number;
  path: string;
  cookie: string;
  connections: number;
  requestsPerConnection: number;
}

/** Worker thread: `connections` keep-alive connections, each sending its requests back to back; latencies in ms. */
async function runLoad(job: LoadJob): Promise<{ latencies: number[]; bytes: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.connections });
  const latencies: number[] = [];
  let bytes = 0;
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const started = performance.now();
      // As a browser asks: gzip welcome. The body is counted, not unzipped.
      const headers = { cookie: job.cookie, 'accept-encoding': 'gzip, deflate, br' };
      const request = http.get({ host: '127.0.0.1', port: job.port, path: job.path, agent, headers }, (response) => {
        if (response.statusCode !== 200) reject(new Error(`${job.path} answered ${response.statusCode}`));
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () => {
          latencies.push(performance.now() - started);
          resolve();
        });
      });
      request.on('error', reject);
    });
  await Promise.all(
    Array.from({ length: job.connections }, async () => {
      for (let i = 0; i < job.requestsPerConnection; i++) await once();
    }),
  );
  agent.destroy();
  return { latencies, bytes };
}

if (!isMainThread) {
  parentPort!.postMessage(await runLoad(workerData as LoadJob));
  process.exit(0);
}

function load(job: LoadJob): Promise<{ latencies: number[]; bytes: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: job });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

const median = (values: number[]) => percentile(values, 50);
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
const ms = (value: number) => `${value.toFixed(1)} ms`;

interface Server {
  runtime: Runtime;
  port: number;
  close(): Promise<void>;
}

async function startServer(database: Database): Promise<Server> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-api-'));
  const config = loadConfig({ ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'silent', DATA_DIR: dataDir, WEB_DIST_DIR: path.join(dataDir, 'no-web') });
  const runtime = await createRuntime(config, { role: 'api', database, logger: pino({ level: 'silent' }) });
  const app = await buildApp(runtime);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    runtime,
    port: (app.server.address() as AddressInfo).port,
    async close() {
      await app.close();
      await runtime.close(2_000);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function post(port: number, url: string, init: { body?: FormData | string; headers?: Record<string, string>; cookie?: string }) {
  return fetch(`http://127.0.0.1:${port}${url}`, {
    method: 'POST',
    headers: { origin: `http://127.0.0.1:${port}`, ...(init.cookie ? { cookie: init.cookie } : {}), ...init.headers },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
}

const sessionCookie = (response: Response) => /sid=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[0] ?? '';

async function benchUpload(server: Server, front: Uint8Array, back: Uint8Array): Promise<void> {
  const form = () => {
    const body = new FormData();
    body.append('frontImage', new Blob([front as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }), 'front.jpg');
    body.append('backImage', new Blob([back as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }), 'back.jpg');
    body.append('cardType', 'pokemon');
    return body;
  };
  // Warm up: threads started, code compiled, OCR worker loaded.
  await server.runtime.gradePhotos({ front, back });
  const api: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < UPLOADS; i++) {
    let started = performance.now();
    await server.runtime.gradePhotos({ front, back });
    bare.push(performance.now() - started);

    started = performance.now();
    const response = await post(server.port, '/api/grade-card', { body: form() });
    const result = (await response.json()) as { id?: string; error?: string };
    api.push(performance.now() - started);
    if (!response.ok || !result.id) throw new Error(`grade-card answered ${response.status}: ${JSON.stringify(result)}`);
  }
  const [apiMedian, bareMedian] = [median(api), median(bare)];
  console.log(
    `upload → result, 12 MP front + back (${(front.length / 1e6).toFixed(1)} + ${(back.length / 1e6).toFixed(1)} MB), median of ${UPLOADS}: ` +
      `API ${ms(apiMedian)}, bare engine ${ms(bareMedian)}, ratio ${(apiMedian / bareMedian).toFixed(2)} (API overhead ${ms(apiMedian - bareMedian)})`,
  );
}

async function benchMyCards(engine: string, server: Server, sampleResult: CardGraded['data']['result']): Promise<void> {
  const { runtime, port } = server;
  const registered = await post(port, '/api/agscard/register', {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      first_name: 'Bench',
      last_name: 'Collector',
      email: `bench-${Date.now()}@example.com`,
      phone: '5551234567',
      password: 'Secret123',
      password_confirmation: 'Secret123',
      is_marketing_notifications_enabled: false,
    }),
  });
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}`);
  const cookie = sessionCookie(registered);
  const userId = ((await registered.json()) as { user: { id: string } }).user.id;

  // The collection, appended as CardGraded events (one stream each, the cards projection inline), as grading
  // would record them; the pixel work is measured above.
  const seeded = performance.now();
  // Cards as varied as a real collection's (names, sets, grades, image hashes), so gzip gets no easier a job.
  const hex = (n: number) => createHash('sha256').update(String(n)).digest('hex');
  const names = ['Pikachu', 'Charizard', 'Blastoise', 'Venusaur', 'Mewtwo', 'Gengar', 'Eevee', 'Snorlax', 'Dragonite', 'Lugia'];
  const sets = ['Base Set', 'Jungle', 'Fossil', 'Team Rocket', 'Neo Genesis', 'Evolving Skies', 'Crown Zenith'];
  const grade = (n: number, salt: number) => (60 + ((n * 7919 + salt * 104729) % 41)) / 10;
  async function appendCard(n: number): Promise<void> {
    const cardId = `bench${String(n).padStart(17, '0')}`;
    const data: CardGraded['data'] = {
      cardId,
      owner: `user:${userId}`,
      cardType: 'pokemon',
      images: { front: { hash: hex(2 * n + 1), contentType: 'image/jpeg', sourceUrl: null }, back: { hash: hex(2 * n + 2), contentType: 'image/jpeg', sourceUrl: null } },
      annotatedImages: { front: hex(2 * n + 1), back: hex(2 * n + 2) },
      result: {
        ...sampleResult,
        cardName: `${names[n % names.length]} ${n}`,
        cardSet: sets[(n * 3) % sets.length]!,
        cardNumber: `${(n % 180) + 1}/${180 + (n % 7)}`,
        grades: { centering: grade(n, 1), corners: grade(n, 2), edges: grade(n, 3), surface: grade(n, 4) },
        overallGrade: grade(n, 5),
      },
      gradedAt: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
    };
    await runtime.eventStore.append(`card-${cardId}`, 'card', [{ type: 'CardGraded', data, metadata: { actor: { kind: 'user', id: userId }, commandId: cardId, timestamp: data.gradedAt } }], {
      expected: 'no_stream',
    });
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < CARDS) await appendCard(next++);
    }),
  );
  console.log(`${engine}: seeded ${CARDS} cards in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
  // The leaderboard and achievements runners catch up first: on PGlite their batches share the one connection.
  const caughtUp = performance.now();
  while ((await projectionStatus(runtime.database.db, { inline: [], async: asyncProjections })).some((s) => s.lag > 0)) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  console.log(`${engine}: async projections caught up in ${((performance.now() - caughtUp) / 1000).toFixed(1)} s more`);

  const job = { port, cookie, connections: CONNECTIONS, requestsPerConnection: REQUESTS_PER_CONNECTION };
  const single = { ...job, connections: 1, requestsPerConnection: 1 };
  await load({ ...job, path: '/api/my-cards', requestsPerConnection: 1 }); // warm up
  const cards = await load({ ...job, path: '/api/my-cards' });
  const health = await load({ ...job, path: '/healthz' });
  const size = cards.bytes / cards.latencies.length;

  // Cold: each read follows a change (a card graded), so the collection is read from the database again.
  const cold: number[] = [];
  const coldHealth: number[] = [];
  for (let i = 0; i < 10; i++) {
    await appendCard(CARDS + i);
    cold.push(...(await load({ ...single, path: '/api/my-cards' })).latencies);
    coldHealth.push(...(await load({ ...single, path: '/healthz' })).latencies);
  }
  console.log(
    `${engine}: GET /api/my-cards, ${CARDS} cards (${(size / 1e6).toFixed(2)} MB gzipped), ${CONNECTIONS} connections, ${cards.latencies.length} requests: ` +
      `median ${ms(median(cards.latencies))}, p99 ${ms(percentile(cards.latencies, 99))}; ` +
      `GET /healthz same load: median ${ms(median(health.latencies))}, p99 ${ms(percentile(health.latencies, 99))}; ` +
      `ratio median ${(median(cards.latencies) / median(health.latencies)).toFixed(1)}, p99 ${(percentile(cards.latencies, 99) / percentile(health.latencies, 99)).toFixed(1)}`,
  );
  console.log(
    `${engine}: GET /api/my-cards right after a change (cold, one connection), median of 10: ${ms(median(cold))}; ` +
      `GET /healthz alone ${ms(median(coldHealth))}; ratio ${(median(cold) / median(coldHealth)).toFixed(1)}`,
  );
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 1_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function withPostgresSchema<T>(work: (database: Database) => Promise<T>): Promise<T> {
  const schema = `bench_api_${Date.now()}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const database = openPostgres({ url: POSTGRES_URL, schema });
  try {
    await migrateToLatest(database.db);
    return await work(database);
  } finally {
    await database.close();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
}

console.log(`drawing the 12-megapixel photos…`);
const [front, back] = await Promise.all([
  renderSyntheticCard({ pxPerMm: TWELVE_MEGAPIXEL_PX_PER_MM, photo: { noise: 8, rotationDeg: 2 } }, 101),
  renderSyntheticCard({ pxPerMm: TWELVE_MEGAPIXEL_PX_PER_MM, photo: { noise: 8, rotationDeg: -1.5 } }, 102),
]);

const pglite = await openPglite();
await migrateToLatest(pglite.db);
let sampleResult: CardGraded['data']['result'];
{
  const server = await startServer(pglite);
  try {
    await benchUpload(server, front, back);
    sampleResult = (await server.runtime.gradePhotos({ front, back })).card;
    await benchMyCards('PGlite', server, sampleResult);
  } finally {
    await server.close();
    await pglite.close();
  }
}

if (await postgresReachable()) {
  await withPostgresSchema(async (database) => {
    const server = await startServer(database);
    try {
      await benchMyCards('PostgreSQL', server, sampleResult);
    } finally {
      await server.close();
    }
  });
} else {
  console.log(`PostgreSQL not reachable at ${POSTGRES_URL}: its figures are left out.`);
}
