// npm run bench:import: a bulk import of BENCH_ROWS (default 432, SPEC.md's figure) rows of 12-MP front-and-back
// drawn cards behind a loopback server that answers each image after 100 ms, through a real listening server:
// on the in-process queue (PGlite, the embedded mode) and on BullMQ with two `npm run worker` processes (PostgreSQL
// and Redis, when reachable). For each: cards per second, the machine's CPU use, and the ratio to the ceiling
// measured in the same run (one card's CPU time × rows ÷ cores); the one-at-a-time baseline (each card downloaded
// and graded after the last); peak memory (and RSS through the run, to see it stay flat); time to the first progress
// message on /ws. BENCH_PARTS=in-process,bullmq picks the parts.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import sharp from 'sharp';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/http/app.ts';
import { createCpuPool } from '../src/infra/cpu-pool/index.ts';
import { migrateToLatest, openPglite, type Database } from '../src/infra/database/index.ts';
import { createImageFetcher } from '../src/infra/image-fetch/index.ts';
import { createRuntime } from '../src/runtime.ts';
import { gradeCard } from '../src/workers/grading/index.ts';
import { POSTGRES_URL, postgresReachable, registerBenchUser, withPostgresSchema } from './http-load.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 432);
const IMAGE_DELAY_MS = 100;
const PARTS = (process.env.BENCH_PARTS ?? 'in-process,bullmq').split(',');
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const cores = os.availableParallelism();
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
sharp.cache(false);

// ── The photos: one 12-MP front and back, drawn once; every row gets its own bytes (a JPEG comment with its number),
// so no row is a duplicate of another, and the server makes them on the fly (no 2.6 GB held in memory).
const directory = mkdtempSync(path.join(os.tmpdir(), 'bench-import-'));
console.log('rendering the 12-MP synthetic photos ...');
await promisify(execFile)(process.execPath, [path.join(repoRoot, 'bench/grade.ts'), '--render', path.join(directory, 'front.jpg'), path.join(directory, 'back.jpg')]);
const front = readFileSync(path.join(directory, 'front.jpg'));
const back = readFileSync(path.join(directory, 'back.jpg'));
const { width, height } = await sharp(front).metadata();
console.log(`photos: ${width} × ${height} (${((width! * height!) / 1e6).toFixed(1)} MP), ${(front.length / 1e6).toFixed(1)} + ${(back.length / 1e6).toFixed(1)} MB; cores ${cores}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);

function variant(bytes: Buffer, tag: string): Buffer {
  const text = Buffer.from(tag);
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([bytes.subarray(0, 2), segment, text, bytes.subarray(2)]);
}

const imageServer = http.createServer((request, response) => {
  const match = /^\/(front|back)\/(\w+)\.jpg$/.exec(request.url ?? '');
  if (!match) return response.writeHead(404).end();
  setTimeout(() => {
    const body = variant(match[1] === 'front' ? front : back, match[2]!);
    response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(body.length) }).end(body);
  }, IMAGE_DELAY_MS);
});
await new Promise<void>((resolve) => imageServer.listen(0, '127.0.0.1', resolve));
const imageOrigin = `http://127.0.0.1:${(imageServer.address() as AddressInfo).port}`;

// ── The ceiling and the baseline, measured here, now ─────────────────────────────────────────────────────────────
/** CPU seconds the whole machine spent busy since `from` (all processes), and wall seconds. */
function machineCpu(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const cpu of os.cpus()) {
    const { user, nice, sys, irq, idle } = cpu.times;
    busy += user + nice + sys + irq;
    total += user + nice + sys + irq + idle;
  }
  return { busy: busy / 1000, total: total / 1000 };
}

const pool = createCpuPool({ size: cores });
const grade = (f: Buffer, b: Buffer) => gradeCard({ front: f, back: b }, { cpuPool: pool, maxPixels: 50_000_000 });
await grade(front, back); // warm-up
const CEILING_RUNS = 6;
const cpuBefore = process.cpuUsage();
for (let i = 0; i < CEILING_RUNS; i++) await grade(variant(front, `c${i}`), variant(back, `c${i}`));
const cpuSpent = process.cpuUsage(cpuBefore);
const cpuPerCard = (cpuSpent.user + cpuSpent.system) / 1e6 / CEILING_RUNS;
const ceilingCardsPerSecond = cores / cpuPerCard;
console.log(`one card (front + back), graded alone: ${(cpuPerCard * 1000).toFixed(0)} ms of CPU → ceiling ${ceilingCardsPerSecond.toFixed(2)} cards/s on ${cores} cores (${((cpuPerCard * ROWS) / cores).toFixed(1)} s for ${ROWS} rows)`);

const fetcher = createImageFetcher({ timeoutMs: 10_000, maxBytes: 15 * 1024 * 1024, concurrency: 50, allowLoopback: true });
const BASELINE_RUNS = 8;
const baselineStarted = performance.now();
for (let i = 0; i < BASELINE_RUNS; i++) {
  const [f, b] = await Promise.all([fetcher.fetchImage(`${imageOrigin}/front/base${i}.jpg`), fetcher.fetchImage(`${imageOrigin}/back/base${i}.jpg`)]);
  await grade(f.bytes, b.bytes);
}
const baselineCardsPerSecond = BASELINE_RUNS / ((performance.now() - baselineStarted) / 1000);
console.log(`one at a time (download both, grade, next): ${baselineCardsPerSecond.toFixed(2)} cards/s\n`);
await pool.close();

// ── An import through the real server ────────────────────────────────────────────────────────────────────────────
interface Result {
  part: string;
  seconds: number;
  machineCpuPercent: number;
  firstProgressMs: number;
  peakRssMb: number;
  rssTrace: number[];
}

function csv(runTag: string): Buffer {
  const lines = ['FrontImage,BackImage,ItemID'];
  for (let row = 0; row < ROWS; row++) lines.push(`${imageOrigin}/front/${runTag}r${row}.jpg,${imageOrigin}/back/${runTag}r${row}.jpg,ITEM-${row}`);
  return Buffer.from(`${lines.join('\n')}\n`);
}

const rssOf = (pid: number): number => {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
};
const peakOf = (pid: number): number => {
  try {
    return Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
};

async function runImport(part: string, port: number, workerPids: () => number[], runTag: string): Promise<Result> {
  const { cookie } = await registerBenchUser(port);
  const origin = `http://127.0.0.1:${port}`;
  const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { cookie, origin } } as unknown as string[]);
  await new Promise<void>((resolve, reject) => {
    socket.onopen = () => resolve();
    socket.onerror = () => reject(new Error('socket did not open'));
  });
  let firstProgressAt = 0;
  let completedAt = 0;
  const done = new Promise<void>((resolve) => {
    socket.onmessage = (event) => {
      const message = JSON.parse(String(event.data)) as { status: string; stage: string };
      firstProgressAt ||= performance.now();
      if (message.status !== 'processing') {
        completedAt = performance.now();
        resolve();
      }
    };
  });
  const rssTrace: number[] = [];
  const pids = () => (workerPids().length > 0 ? workerPids() : [process.pid]);
  const sampler = setInterval(() => rssTrace.push(pids().reduce((sum, pid) => sum + rssOf(pid), 0)), 2_000);
  const form = new FormData();
  form.append('file', new Blob([csv(runTag)], { type: 'text/csv' }), 'bench.csv');
  const cpuStart = machineCpu();
  const started = performance.now();
  const response = await fetch(`${origin}/api/ultra-fast-upload`, { method: 'POST', headers: { origin, cookie }, body: form });
  if (response.status !== 200) throw new Error(`upload answered ${response.status}: ${await response.text()}`);
  await done;
  clearInterval(sampler);
  const cpuEnd = machineCpu();
  socket.close();
  const seconds = (completedAt - started) / 1000;
  return {
    part,
    seconds,
    machineCpuPercent: Math.round(((cpuEnd.busy - cpuStart.busy) / (cpuEnd.total - cpuStart.total)) * 100),
    firstProgressMs: Math.round(firstProgressAt - started),
    peakRssMb: pids().reduce((sum, pid) => sum + peakOf(pid), 0),
    rssTrace,
  };
}

async function startApi(database: Database, env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-import-api-'));
  const config = loadConfig({ ...process.env, REDIS_URL: '', NODE_ENV: 'production', LOG_LEVEL: 'silent', DATA_DIR: dataDir, WEB_DIST_DIR: path.join(dataDir, 'no-web'), ALLOW_LOOPBACK_IMAGE_URLS: 'true', IMAGE_FETCH_TIMEOUT_MS: '10000', AUTH_RATE_LIMIT_PER_ADDRESS: '1000', ...env });
  const runtime = await createRuntime(config, { role: 'api', database, logger: pino({ level: 'silent' }) });
  const app = await buildApp(runtime);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    port: (app.server.address() as AddressInfo).port,
    async close() {
      await app.close();
      await runtime.close(2_000);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const results: Result[] = [];

if (PARTS.includes('in-process')) {
  const pglite = await openPglite();
  await migrateToLatest(pglite.db);
  const api = await startApi(pglite, {});
  try {
    results.push(await runImport('in-process queue, PGlite, 1 process', api.port, () => [], 'ip'));
  } finally {
    await api.close();
    await pglite.close();
  }
}

if (PARTS.includes('bullmq')) {
  const redisUp = await new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 }).connect().then(
    () => true,
    () => false,
  );
  if (!(await postgresReachable()) || !redisUp) {
    console.log(`BullMQ part left out: PostgreSQL (${POSTGRES_URL}) or Redis (${REDIS_URL}) not reachable.`);
  } else {
    const prefix = `bench-import-${Date.now()}`;
    await withPostgresSchema(async (database) => {
      const api = await startApi(database, { REDIS_URL, QUEUE_PREFIX: prefix });
      const schema = ((await database.db.selectNoFrom((eb) => eb.fn<string>('current_schema', []).as('schema')).executeTakeFirstOrThrow()) as { schema: string }).schema;
      const workers: ChildProcess[] = [];
      try {
        for (let i = 0; i < 2; i++) {
          workers.push(
            spawn(process.execPath, ['src/workers/main.ts'], {
              cwd: repoRoot,
              stdio: 'ignore',
              env: {
                ...process.env,
                NODE_ENV: 'production',
                LOG_LEVEL: 'warn',
                DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'bench-import-worker-')),
                DATABASE_URL: `${POSTGRES_URL}?options=${encodeURIComponent(`-c search_path=${schema},public`)}`,
                REDIS_URL,
                QUEUE_PREFIX: prefix,
                ALLOW_LOOPBACK_IMAGE_URLS: 'true',
                IMAGE_FETCH_TIMEOUT_MS: '10000',
                CPU_POOL_SIZE: String(Math.max(1, Math.floor(cores / 2))),
              },
            }),
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        results.push(await runImport('BullMQ, PostgreSQL, 2 worker processes', api.port, () => workers.map((w) => w.pid!), 'bq'));
      } finally {
        for (const worker of workers) worker.kill('SIGTERM');
        await Promise.all(workers.map((w) => new Promise((resolve) => (w.exitCode !== null ? resolve(null) : w.once('exit', resolve)))));
        await api.close();
        const redis = new Redis(REDIS_URL);
        const keys = await redis.keys(`${prefix}:*`);
        if (keys.length > 0) await redis.del(...keys);
        await redis.quit();
      }
    });
  }
}

imageServer.close();
rmSync(directory, { recursive: true, force: true });

console.log(`\n${ROWS} rows, 12-MP front and back each, images answered after ${IMAGE_DELAY_MS} ms:`);
for (const r of results) {
  const cardsPerSecond = ROWS / r.seconds;
  console.log(`\n${r.part}`);
  console.log(`  ${cardsPerSecond.toFixed(2)} cards/s (${r.seconds.toFixed(1)} s); machine CPU ${r.machineCpuPercent}%`);
  console.log(`  ${Math.round((cardsPerSecond / ceilingCardsPerSecond) * 100)}% of the CPU ceiling (${ceilingCardsPerSecond.toFixed(2)} cards/s); ${(cardsPerSecond / baselineCardsPerSecond).toFixed(1)}× the one-at-a-time baseline (${baselineCardsPerSecond.toFixed(2)} cards/s)`);
  console.log(`  first progress message after ${r.firstProgressMs} ms; peak RSS ${r.peakRssMb} MB; RSS every 2 s: ${r.rssTrace.join(' ')} MB`);
}
process.exit(0);
