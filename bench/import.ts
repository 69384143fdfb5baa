// npm run bench:import: a bulk import of BENCH_ROWS (default 432, SPEC.md's figure) rows of 12-MP front-and-back
// drawn cards behind a loopback server that answers each image after 100 ms, through a real listening server:
// on the in-process queue (PGlite, the embedded mode) and on BullMQ with two `npm run worker` processes (PostgreSQL
// and Redis, when reachable). For each: cards per second, the machine's CPU use, and the ratio to the ceiling
// measured in the same run (one card's CPU time × rows ÷ cores, the card graded as the server grades it: OCR
// included, market prices off); the one-at-a-time baseline (each card downloaded and graded after the last); peak
// memory (and RSS through the run, to see it stay flat); time to the first progress message on /ws. Then the memory
// of the in-process server through an import of BENCH_MEMORY_ROWS (default 2,000) rows.
// BENCH_PARTS=in-process,bullmq,memory picks the parts.
import { execFile, fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import sharp from 'sharp';
import { createCpuPool } from '../src/infra/cpu-pool/index.ts';
import { createOcrIdentifier } from '../src/infra/identification/index.ts';
import { createImageFetcher } from '../src/infra/image-fetch/index.ts';
import { threadpoolSize } from '../src/infra/process-lifecycle.ts';
import { gradeCard } from '../src/workers/grading/index.ts';
import { cpuByThread, POSTGRES_URL, postgresReachable, registerBenchUser, withPostgresSchema } from './http-load.ts';
import { variant } from './import-images.ts';
import { BENCH_ENV, startApi } from './import-server.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 432);
const IMAGE_DELAY_MS = 100;
const MEMORY_ROWS = Number(process.env.BENCH_MEMORY_ROWS ?? 2_000);
const PARTS = (process.env.BENCH_PARTS ?? 'in-process,bullmq,memory').split(',');
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const cores = os.availableParallelism();
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
sharp.cache(false);

// ── The photos: one 12-MP front and back, drawn once; every row gets its own bytes (a JPEG comment with its number),
// so no row is a duplicate of another, made on the fly by the image server (bench/import-images.ts, its own process).
const directory = mkdtempSync(path.join(os.tmpdir(), 'bench-import-'));
console.log('rendering the 12-MP synthetic photos ...');
await promisify(execFile)(process.execPath, [path.join(repoRoot, 'bench/grade.ts'), '--render', path.join(directory, 'front.jpg'), path.join(directory, 'back.jpg')]);
const front = readFileSync(path.join(directory, 'front.jpg'));
const back = readFileSync(path.join(directory, 'back.jpg'));
const { width, height } = await sharp(front).metadata();
console.log(`photos: ${width} × ${height} (${((width! * height!) / 1e6).toFixed(1)} MP), ${(front.length / 1e6).toFixed(1)} + ${(back.length / 1e6).toFixed(1)} MB; cores ${cores}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);

const imageServer = fork(path.join(repoRoot, 'bench/import-images.ts'), ['--serve', path.join(directory, 'front.jpg'), path.join(directory, 'back.jpg'), String(IMAGE_DELAY_MS)]);
const imageOrigin = `http://127.0.0.1:${(await new Promise<{ port: number }>((resolve) => imageServer.once('message', (message) => resolve(message as { port: number })))).port}`;

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

/** CPU seconds of every process on the machine by pid, with its command name (Linux /proc). */
function processCpu(): Map<number, { name: string; seconds: number }> {
  const all = new Map<number, { name: string; seconds: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      all.set(Number(entry), { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), seconds: (Number(fields[11]) + Number(fields[12])) / 100 });
    } catch {
      // Gone meanwhile.
    }
  }
  return all;
}

/** Who spent the machine's CPU between two readings: the given processes by role, PostgreSQL, Redis, and the rest (other work on the machine). */
function cpuByProcess(before: ReturnType<typeof processCpu>, after: ReturnType<typeof processCpu>, roles: Map<number, string>): Record<string, number> {
  const spent: Record<string, number> = {};
  for (const [pid, { name, seconds }] of after) {
    const used = seconds - (before.get(pid)?.seconds ?? 0);
    if (used <= 0) continue;
    const role = roles.get(pid) ?? (name.startsWith('postgres') ? 'PostgreSQL' : name.startsWith('redis') ? 'Redis' : 'other processes (not this bench)');
    spent[role] = (spent[role] ?? 0) + used;
  }
  return spent;
}

const pool = createCpuPool({ size: cores });
const identifier = createOcrIdentifier();
const grade = (f: Buffer, b: Buffer) => gradeCard({ front: f, back: b }, { cpuPool: pool, identifier, maxPixels: 50_000_000 });
// Warm-up: the first cards pay for compiling the pixel loops (V8's helper threads), which no card of a long import does.
for (let i = 0; i < 4; i++) await grade(variant(front, `w${i}`), variant(back, `w${i}`));
const CEILING_RUNS = 10;
const cpuBefore = process.cpuUsage();
const threadsBefore = cpuByThread();
for (let i = 0; i < CEILING_RUNS; i++) await grade(variant(front, `c${i}`), variant(back, `c${i}`));
const cpuSpent = process.cpuUsage(cpuBefore);
const ceilingThreads = Object.entries(cpuByThread())
  .map(([name, seconds]) => [name, seconds - (threadsBefore[name] ?? 0)] as const)
  .filter(([, seconds]) => seconds > 0)
  .sort((a, b) => b[1] - a[1]);
const cpuPerCard = (cpuSpent.user + cpuSpent.system) / 1e6 / CEILING_RUNS;
const ceilingCardsPerSecond = cores / cpuPerCard;
console.log(`one card (front + back, OCR included), graded alone: ${(cpuPerCard * 1000).toFixed(0)} ms of CPU → ceiling ${ceilingCardsPerSecond.toFixed(2)} cards/s on ${cores} cores (${((cpuPerCard * ROWS) / cores).toFixed(1)} s for ${ROWS} rows); by thread: ${ceilingThreads.map(([name, seconds]) => `${name} ${((seconds / CEILING_RUNS) * 1000).toFixed(0)}`).join(', ')} ms`);

const fetcher = createImageFetcher({ timeoutMs: 10_000, maxBytes: 15 * 1024 * 1024, concurrency: 50, allowLoopback: true });
const BASELINE_RUNS = 8;
const baselineStarted = performance.now();
for (let i = 0; i < BASELINE_RUNS; i++) {
  const [f, b] = await Promise.all([fetcher.fetchImage(`${imageOrigin}/front/base${i}.jpg`), fetcher.fetchImage(`${imageOrigin}/back/base${i}.jpg`)]);
  await grade(f.bytes, b.bytes);
}
const baselineCardsPerSecond = BASELINE_RUNS / ((performance.now() - baselineStarted) / 1000);
console.log(`one at a time (download both, grade, next): ${baselineCardsPerSecond.toFixed(2)} cards/s\n`);
await Promise.all([pool.close(), identifier.close()]);

// ── An import through the real server ────────────────────────────────────────────────────────────────────────────
interface Result {
  part: string;
  seconds: number;
  machineCpuPercent: number;
  /** Busy CPU seconds of the whole machine during the import, per row: everything a row costs, not grading alone. */
  machineCpuPerRow: number;
  rows: number;
  firstProgressMs: number;
  /** CPU seconds by process during the import. */
  processCpu: Record<string, number>;
  /** The embedded server's CPU seconds by thread during the import. */
  serverCpu?: Record<string, number>;
  peakRssMb: number;
  rssTrace: number[];
}

function csv(runTag: string, rows: number): Buffer {
  const lines = ['FrontImage,BackImage,ItemID'];
  for (let row = 0; row < rows; row++) lines.push(`${imageOrigin}/front/${runTag}r${row}.jpg,${imageOrigin}/back/${runTag}r${row}.jpg,ITEM-${row}`);
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

async function runImport(part: string, port: number, roles: () => Map<number, string>, runTag: string, rows = ROWS, threadCpu?: () => Promise<Record<string, number>>): Promise<Result> {
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
  // Memory of the processes that work on the rows: the embedded server, or the workers.
  const pids = () => [...roles()].filter(([, role]) => role === 'server' || role === 'workers').map(([pid]) => pid);
  const sampler = setInterval(() => rssTrace.push(pids().reduce((sum, pid) => sum + rssOf(pid), 0)), 2_000);
  const form = new FormData();
  form.append('file', new Blob([csv(runTag, rows)], { type: 'text/csv' }), 'bench.csv');
  const threadsAtStart = await threadCpu?.();
  const cpuStart = machineCpu();
  const processesAtStart = processCpu();
  const started = performance.now();
  const response = await fetch(`${origin}/api/ultra-fast-upload`, { method: 'POST', headers: { origin, cookie }, body: form });
  if (response.status !== 200) throw new Error(`upload answered ${response.status}: ${await response.text()}`);
  await done;
  clearInterval(sampler);
  const cpuEnd = machineCpu();
  const processesAtEnd = processCpu();
  const threadsAtEnd = await threadCpu?.();
  socket.close();
  const seconds = (completedAt - started) / 1000;
  return {
    part,
    seconds,
    machineCpuPercent: Math.round(((cpuEnd.busy - cpuStart.busy) / (cpuEnd.total - cpuStart.total)) * 100),
    machineCpuPerRow: (cpuEnd.busy - cpuStart.busy) / rows,
    processCpu: cpuByProcess(processesAtStart, processesAtEnd, roles()),
    rows,
    firstProgressMs: Math.round(firstProgressAt - started),
    ...(threadsAtStart && threadsAtEnd ? { serverCpu: Object.fromEntries(Object.entries(threadsAtEnd).map(([name, seconds]) => [name, seconds - (threadsAtStart[name] ?? 0)])) } : {}),
    peakRssMb: pids().reduce((sum, pid) => sum + peakOf(pid), 0),
    rssTrace,
  };
}

const results: Result[] = [];
let memoryRun: Result | undefined;

/** The embedded mode's server (PGlite, in-process queue) in a process of its own, for `work` (given its port and pid). */
async function withEmbeddedServer<T>(work: (port: number, pid: number, threadCpu: () => Promise<Record<string, number>>) => Promise<T>): Promise<T> {
  const server = fork(path.join(repoRoot, 'bench/import-server.ts'), ['--serve'], {
    env: { ...process.env, UV_THREADPOOL_SIZE: threadpoolSize(cores) },
    // BENCH_PROFILE=<folder>: the server's CPU profile (its main thread and each worker thread) is written there.
    execArgv: process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
  });
  try {
    const { port } = await new Promise<{ port: number }>((resolve, reject) => {
      server.once('message', (message) => resolve(message as { port: number }));
      server.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready`)));
    });
    const threadCpu = () =>
      new Promise<Record<string, number>>((resolve) => {
        server.on('message', function on(message: { type: string; cpuByThread?: Record<string, number> }) {
          if (message.type !== 'cpu') return;
          server.off('message', on);
          resolve(message.cpuByThread!);
        });
        server.send({ type: 'cpu' });
      });
    return await work(port, server.pid!, threadCpu);
  } finally {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.send({ type: 'stop' });
    await exited;
  }
}

if (PARTS.includes('in-process')) {
  results.push(await withEmbeddedServer((port, pid, threadCpu) => runImport('in-process queue, PGlite, 1 process', port, () => new Map([[pid, 'server'], [imageServer.pid!, 'bench image server']]), 'ip', ROWS, threadCpu)));
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
                LOG_LEVEL: 'warn',
                DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'bench-import-worker-')),
                DATABASE_URL: `${POSTGRES_URL}?options=${encodeURIComponent(`-c search_path=${schema},public`)}`,
                REDIS_URL,
                QUEUE_PREFIX: prefix,
                CPU_POOL_SIZE: String(Math.max(1, Math.floor(cores / 2))),
                ...BENCH_ENV,
              },
            }),
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        results.push(await runImport('BullMQ, PostgreSQL, 2 worker processes', api.port, () => new Map([...workers.map((w) => [w.pid!, 'workers'] as const), [process.pid, 'API'], [imageServer.pid!, 'bench image server']]), 'bq'));
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

if (PARTS.includes('memory')) {
  memoryRun = await withEmbeddedServer((port, pid, threadCpu) => runImport(`memory: ${MEMORY_ROWS} rows, in-process queue, PGlite`, port, () => new Map([[pid, 'server'], [imageServer.pid!, 'bench image server']]), 'mem', MEMORY_ROWS, threadCpu));
}

await new Promise((resolve) => {
  imageServer.once('exit', resolve);
  imageServer.send('stop');
});
rmSync(directory, { recursive: true, force: true });

const rssSummary = (trace: number[]) => {
  // Flat: the last quarter of the run holds no more than the first quarter after warm-up (its first tenth) did.
  const at = (fraction: number) => trace[Math.min(trace.length - 1, Math.floor(trace.length * fraction))] ?? 0;
  const tenths = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1].map(at);
  const early = Math.max(...trace.slice(Math.floor(trace.length * 0.1), Math.ceil(trace.length * 0.35)));
  const late = Math.max(...trace.slice(Math.floor(trace.length * 0.75)));
  return `RSS at each tenth of the run: ${tenths.join(' ')} MB; highest in the last quarter ${late} MB vs ${early} MB in the first after warm-up (${late <= early * 1.2 ? 'flat, within 20 %' : `grew ${Math.round((late / early - 1) * 100)} %`})`;
};

console.log(`\nload average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; ${cores} cores`);
console.log(`one card graded alone (front + back, OCR): ${(cpuPerCard * 1000).toFixed(0)} ms of CPU → ceiling ${ceilingCardsPerSecond.toFixed(2)} cards/s; one at a time: ${baselineCardsPerSecond.toFixed(2)} cards/s`);
console.log(`\n${ROWS} rows, 12-MP front and back each, images answered after ${IMAGE_DELAY_MS} ms:`);
for (const r of results) {
  const cardsPerSecond = r.rows / r.seconds;
  console.log(`\n${r.part}`);
  console.log(`  ${cardsPerSecond.toFixed(2)} cards/s (${r.seconds.toFixed(1)} s); machine CPU ${r.machineCpuPercent}%; ${(r.machineCpuPerRow * 1000).toFixed(0)} ms of machine CPU per row, everything included (${((r.machineCpuPerRow / cpuPerCard) * 100).toFixed(0)}% of one card's grading)`);
  console.log(`  ${Math.round((cardsPerSecond / ceilingCardsPerSecond) * 100)}% of the CPU ceiling (${ceilingCardsPerSecond.toFixed(2)} cards/s); ${(cardsPerSecond / baselineCardsPerSecond).toFixed(1)}× the one-at-a-time baseline (${baselineCardsPerSecond.toFixed(2)} cards/s)`);
  const byProcess = Object.entries(r.processCpu).sort((a, b) => b[1] - a[1]);
  console.log(`  machine CPU per row by process: ${byProcess.map(([role, seconds]) => `${role} ${((seconds / r.rows) * 1000).toFixed(0)} ms`).join(', ')}`);
  if (r.serverCpu) {
    const threads = Object.entries(r.serverCpu).filter(([, seconds]) => seconds > 0).sort((a, b) => b[1] - a[1]);
    const total = threads.reduce((sum, [, seconds]) => sum + seconds, 0);
    console.log(`  the server's CPU per row: ${((total / r.rows) * 1000).toFixed(0)} ms (${threads.map(([name, seconds]) => `${name} ${((seconds / r.rows) * 1000).toFixed(0)}`).join(', ')})`);
  }
  console.log(`  first progress message after ${r.firstProgressMs} ms; peak RSS ${r.peakRssMb} MB; RSS every 2 s: ${r.rssTrace.join(' ')} MB`);
}
if (memoryRun) {
  const r = memoryRun;
  console.log(`\n${r.part}: ${(r.rows / r.seconds).toFixed(2)} cards/s (${r.seconds.toFixed(0)} s, ${Math.round((r.rows / r.seconds / ceilingCardsPerSecond) * 100)}% of the ceiling); peak RSS ${r.peakRssMb} MB`);
  console.log(`  ${rssSummary(r.rssTrace)}`);
}
process.exit(0);
