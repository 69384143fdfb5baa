// What the HTTP benchmarks share: a real listening server over a given database, load from a worker thread (so
// client and server do not share an event loop), percentiles, a signed-in bench user, and a scratch PostgreSQL schema.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/http/app.ts';
import { migrateToLatest, openPglite, openPostgres, type Database } from '../src/infra/database/index.ts';
import { createRuntime, type Runtime } from '../src/runtime.ts';

export const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface LoadJob {
  port: number;
  path: string;
  cookie: string;
  connections: number;
  requestsPerConnection: number;
}

/** Worker thread: `connections` keep-alive connections, each sending its requests back to back; latencies in ms. */
export async function runLoad(job: LoadJob): Promise<{ latencies: number[]; bytes: number }> {
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

export function load(job: LoadJob): Promise<{ latencies: number[]; bytes: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: job });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

export const median = (values: number[]) => percentile(values, 50);
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
export const ms = (value: number) => `${value.toFixed(1)} ms`;

export interface Server {
  runtime: Runtime;
  port: number;
  close(): Promise<void>;
}

/** A server over `database`; `env` adds settings (REDIS_URL, IMAGE_STORE, …) to the machine's. */
export async function startServer(database: Database, env: Record<string, string> = {}): Promise<Server> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-api-'));
  const config = loadConfig({ ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'silent', DATA_DIR: dataDir, WEB_DIST_DIR: path.join(dataDir, 'no-web'), ...env });
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

export async function post(port: number, url: string, init: { body?: FormData | string; headers?: Record<string, string>; cookie?: string }) {
  return fetch(`http://127.0.0.1:${port}${url}`, {
    method: 'POST',
    headers: { origin: `http://127.0.0.1:${port}`, ...(init.cookie ? { cookie: init.cookie } : {}), ...init.headers },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
}

export const sessionCookie = (response: Response) => /sid=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[0] ?? '';

/** Registers a bench user on the server; its session cookie and id. */
export async function registerBenchUser(port: number): Promise<{ cookie: string; userId: string }> {
  const registered = await post(port, '/api/agscard/register', {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      first_name: 'Bench',
      last_name: 'Collector',
      email: `bench-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`,
      phone: '5551234567',
      password: 'Secret123',
      password_confirmation: 'Secret123',
      is_marketing_notifications_enabled: false,
    }),
  });
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}`);
  return { cookie: sessionCookie(registered), userId: ((await registered.json()) as { user: { id: string } }).user.id };
}

export async function postgresReachable(): Promise<boolean> {
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

export async function redisReachable(): Promise<boolean> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0 });
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** Deletes a bench run's keys from the shared Redis (never anything else). */
export async function deleteRedisKeys(pattern: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

export async function withPostgresSchema<T>(work: (database: Database) => Promise<T>): Promise<T> {
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

/** Runs `bench` against a listening server on PGlite, then on PostgreSQL when it is reachable. */
export async function onBothEngines(bench: (engine: 'PGlite' | 'PostgreSQL', server: Server) => Promise<void>): Promise<void> {
  const pglite = await openPglite();
  await migrateToLatest(pglite.db);
  const server = await startServer(pglite);
  try {
    await bench('PGlite', server);
  } finally {
    await server.close();
    await pglite.close();
  }
  if (!(await postgresReachable())) {
    console.log(`PostgreSQL not reachable at ${POSTGRES_URL}: its figures are left out.`);
    return;
  }
  await withPostgresSchema(async (database) => {
    const onPostgres = await startServer(database);
    try {
      await bench('PostgreSQL', onPostgres);
    } finally {
      await onPostgres.close();
    }
  });
}

/** CPU seconds by thread name (Linux): the main thread ("node"), libuv's pool, worker threads, V8's helpers. */
export function cpuByThread(): Record<string, number> {
  const seconds: Record<string, number> = {};
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      const name = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      seconds[name] = (seconds[name] ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100;
    }
  } catch {
    // Not Linux: no breakdown.
  }
  return seconds;
}
