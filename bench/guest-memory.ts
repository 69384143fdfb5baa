// npm run bench:guest-memory: the server's memory under sustained guest grading at the guest limit, and after.
// Starts the real server (embedded database), grades as cookie-less guests from one address at the limit
// (GRADE_LIMIT_GUEST_PER_MINUTE, one photo every 60/limit seconds) for BENCH_SECONDS (default 600), samples the
// server's resident memory every 10 s, then lets it idle for BENCH_IDLE_SECONDS (default 60) and compares.
// Goal (issue 20): once idle, within 15% of its memory after warm-up. Baseline: that warm-up figure, same run.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderSyntheticCard } from '../src/vision/index.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 600);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 60);
const PER_MINUTE = 20;
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const port = await new Promise<number>((resolve) => {
  const probe = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as net.AddressInfo;
    probe.close(() => resolve(port));
  });
});
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guest-memory-'));
const server = spawn(path.join(repoRoot, 'node_modules/.bin/node'), ['src/main.ts'], {
  cwd: repoRoot,
  env: { ...process.env, NODE_ENV: 'production', PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', GRADE_LIMIT_GUEST_PER_MINUTE: String(PER_MINUTE), DATABASE_URL: '', REDIS_URL: '' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))![1]) / 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

try {
  for (let tries = 0; ; tries++) {
    if ((await fetch(`${base}/healthz`).catch(() => null))?.ok) break;
    if (tries > 300) throw new Error('the server did not start');
    await sleep(100);
  }
  // Twelve different photos (2 MP), so the decoder and the image store see new bytes each time.
  const photos = await Promise.all(Array.from({ length: 12 }, (_, i) => renderSyntheticCard({ pxPerMm: 14, photo: { noise: 3, rotationDeg: i - 6 } }, 900 + i)));
  const grade = async (n: number) => {
    const form = new FormData();
    form.append('frontImage', new Blob([photos[n % photos.length]! as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }), 'card.jpg');
    form.append('cardType', 'pokemon');
    return (await fetch(`${base}/api/grade-card`, { method: 'POST', body: form, headers: { origin: base } })).status;
  };
  // Warm-up: the first gradings load the CPU pool's threads and their code.
  for (let n = 0; n < 3; n++) await grade(n);
  await sleep(5_000);
  const start = rssMb();
  console.log(`warm: ${start.toFixed(0)} MB resident; grading as guests at ${PER_MINUTE} a minute for ${SECONDS} s`);

  const statuses = new Map<number, number>();
  let peak = start;
  const began = Date.now();
  let n = 3;
  let nextSample = began + 10_000;
  while (Date.now() - began < SECONDS * 1000) {
    const status = await grade(n++);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    peak = Math.max(peak, rssMb());
    if (Date.now() >= nextSample) {
      console.log(`  ${Math.round((Date.now() - began) / 1000)} s: ${rssMb().toFixed(0)} MB`);
      nextSample += 10_000;
    }
    await sleep(60_000 / PER_MINUTE);
  }
  const loaded = rssMb();
  await sleep(IDLE_SECONDS * 1000);
  const idle = rssMb();
  console.log(`answers: ${[...statuses].map(([s, c]) => `${c} × ${s}`).join(', ')}`);
  console.log(`memory: warm ${start.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, at the end of grading ${loaded.toFixed(0)} MB, after ${IDLE_SECONDS} s idle ${idle.toFixed(0)} MB`);
  console.log(`idle / warm = ${(idle / start).toFixed(2)}× (goal ≤ 1.15×): ${idle / start <= 1.15 ? 'met' : 'NOT met'}`);
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
