// npm run bench:load (issue 15): the real server on loopback (bench/load-server.ts, its own process, PostgreSQL when
// reachable) and BENCH_CLIENTS (default 200) clients at once for BENCH_SECONDS (default 60), each a signed-in user
// with a keep-alive connection of its own going round the same mix of twenty requests: reads (my-cards, portfolio, a
// card page, leaderboard), writes (portfolio edits and additions) and one grading upload of a distinct photo (1 in 20
// requests, as issue 15 asks), at BENCH_CLIENT_RATE requests a second each (default 0.35: a person clicking every
// three seconds; a client whose answer is late sends its next at once). Clients start at random points of the round,
// so uploads come evenly, and grading runs all the time. Per route: requests per second, p50, p99, non-2xx, 5xx;
// the server's memory after warm-up and at the end, how late its event loop ran and its CPU by thread.
// Then (BENCH_SATURATION_SECONDS, default 15; 0 leaves it out) the reads and writes flat out, without uploads: each
// route its own autocannon clients sending back to back, for the server's capacity; there a latency is mostly the
// wait behind the other clients (clients ÷ throughput), which is what it says.
// Goal: no 5xx, reads' p99 under 100 ms while grading runs, memory within 20 %.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import autocannon from 'autocannon';
import { SAMPLE_CARDS_DIR } from '../src/commands/cards/restore-sample-cards.ts';
import { percentile, post, registerBenchUser } from './http-load.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const CLIENT_RATE = Number(process.env.BENCH_CLIENT_RATE ?? 0.35);
const SATURATION_SECONDS = Number(process.env.BENCH_SATURATION_SECONDS ?? 15);
const USERS = 20;

const server = fork(new URL('./load-server.ts', import.meta.url), [], {
  env: {
    ...process.env,
    LOG_LEVEL: 'silent',
    GRADE_LIMIT_USER_PER_MINUTE: '1000000',
    GRADE_LIMIT_USER_PER_DAY: '1000000',
    AUTH_RATE_LIMIT_PER_ADDRESS: '1000000',
    // No market-price lookups on the internet: the figures are this machine's alone.
    PRICE_SOURCE: 'none',
  },
  // BENCH_PROFILE=<folder>: the server's CPU profile (its main thread and each worker thread) is written there.
  execArgv: ['--expose-gc', ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [])],
});
const fromServer = <T>(type: string) => new Promise<T>((resolve) => server.on('message', function on(message: { type: string }) {
  if (message.type !== type) return;
  server.off('message', on);
  resolve(message as T);
}));
process.on('exit', () => server.kill());
const { port, engine, cpuThreads } = await fromServer<{ port: number; engine: string; cpuThreads: number }>('ready');
const loadAverage = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
console.log(`server on ${engine}, port ${port}, ${cpuThreads} grading threads on ${os.availableParallelism()} cores; load average ${loadAverage()}; seeding ${USERS} users`);
const memory = async () => {
  const answer = fromServer<{ rss: number; heapUsed: number; eventLoopDelay: { p50: number; p99: number; max: number }; cpuByThread: Record<string, number> }>('memory');
  server.send({ type: 'memory' });
  return answer;
};

// Users with something to read: a graded card and 30 portfolio cards each.
const photos = ['1-gem-mint.jpg', '2-off-center.jpg', '3-whitened-corner.jpg', '4-scratched.jpg', '5-edge-wear.jpg'].map((name) => readFileSync(new URL(name, SAMPLE_CARDS_DIR)));
// Registered all at once (the 500 an early version of this bench saw with 20 at once is no longer there: 40
// simultaneous registrations with the same names all answer 201).
const cookies = await Promise.all(Array.from({ length: USERS }, async () => (await registerBenchUser(port)).cookie));
const users = await Promise.all(
  cookies.map(async (cookie, n) => {
    const form = new FormData();
    form.append('frontImage', new Blob([photos[n % photos.length]!], { type: 'image/jpeg' }), 'card.jpg');
    const graded = await post(port, '/api/grade-card', { body: form, cookie });
    if (graded.status !== 200) throw new Error(`grading answered ${graded.status}: ${await graded.text()}`);
    const cardId = ((await graded.json()) as { id: string }).id;
    const portfolioIds: number[] = [];
    for (let i = 0; i < 30; i++) {
      const added = await post(port, '/api/portfolio', { cookie, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ cardName: `Card ${n}-${i}`, currentPrice: `${(i * 37) % 500}.00` }) });
      portfolioIds.push(((await added.json()) as { id: number }).id);
    }
    return { cookie, cardId, portfolioIds };
  }),
);

/** A multipart body of a sample photo with random bytes after its end: a distinct photo each time, graded afresh. */
const BOUNDARY = 'benchloadboundary';
function uploadBody(): Buffer {
  const photo = photos[Math.floor(Math.random() * photos.length)]!;
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="frontImage"; filename="card.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
    photo,
    randomBytes(16),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;
const origin = `http://127.0.0.1:${port}`;
interface Route {
  name: string;
  kind: 'read' | 'write' | 'upload';
  /** Of every twenty requests of a client's round. */
  perRound: number;
  request: () => { method: 'GET' | 'POST' | 'PATCH'; path: string; headers: Record<string, string>; body?: string | Buffer };
}
const routes: Route[] = [
  { name: 'GET /api/my-cards', kind: 'read', perRound: 4, request: () => ({ method: 'GET', path: '/api/my-cards', headers: { cookie: pick(users).cookie, 'accept-encoding': 'gzip' } }) },
  { name: 'GET /api/portfolio', kind: 'read', perRound: 4, request: () => ({ method: 'GET', path: '/api/portfolio', headers: { cookie: pick(users).cookie, 'accept-encoding': 'gzip' } }) },
  { name: 'GET /api/card/:id', kind: 'read', perRound: 4, request: () => ({ method: 'GET', path: `/api/card/${pick(users).cardId}`, headers: { 'accept-encoding': 'gzip' } }) },
  { name: 'GET /api/leaderboard', kind: 'read', perRound: 3, request: () => ({ method: 'GET', path: '/api/leaderboard', headers: { 'accept-encoding': 'gzip' } }) },
  {
    name: 'PATCH /api/portfolio/:id',
    kind: 'write',
    perRound: 2,
    request: () => {
      const user = pick(users);
      return { method: 'PATCH', path: `/api/portfolio/${pick(user.portfolioIds)}`, headers: { cookie: user.cookie, origin, 'content-type': 'application/json' }, body: JSON.stringify({ currentPrice: `${Math.floor(Math.random() * 1000)}.00` }) };
    },
  },
  { name: 'POST /api/portfolio', kind: 'write', perRound: 2, request: () => ({ method: 'POST', path: '/api/portfolio', headers: { cookie: pick(users).cookie, origin, 'content-type': 'application/json' }, body: JSON.stringify({ cardName: `Bench ${Math.random()}` }) }) },
  { name: 'POST /api/grade-card', kind: 'upload', perRound: 1, request: () => ({ method: 'POST', path: '/api/grade-card', headers: { cookie: pick(users).cookie, origin, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, body: uploadBody() }) },
];
/** A client's round of twenty requests, the upload among them, spread out. */
const round: Route[] = (() => {
  const slots: Route[] = [];
  for (const route of routes) for (let i = 0; i < route.perRound; i++) slots.push(route);
  // Interleaved by kind rather than in blocks: r r w r r ... with the upload in the middle.
  const upload = slots.filter((r) => r.kind === 'upload');
  const rest = slots.filter((r) => r.kind !== 'upload').sort((a, b) => routes.indexOf(a) - routes.indexOf(b));
  const interleaved: Route[] = [];
  const stride = 5;
  for (let offset = 0; offset < stride; offset++) for (let i = offset; i < rest.length; i += stride) interleaved.push(rest[i]!);
  interleaved.splice(interleaved.length >> 1, 0, ...upload);
  return interleaved;
})();

interface RouteFigures {
  latencies: number[];
  non2xx: number;
  fiveXx: number;
  errors: number;
}
const figures = new Map(routes.map((route) => [route, { latencies: [], non2xx: 0, fiveXx: 0, errors: 0 } as RouteFigures]));

/** One request on the client's own connection, counted in its route's figures (a reset or timeout as an error). */
function send(agent: http.Agent, route: Route): Promise<void> {
  const { method, path, headers, body } = route.request();
  const entry = figures.get(route)!;
  return new Promise((resolve) => {
    const started = performance.now();
    const request = http.request({ host: '127.0.0.1', port, method, path, agent, headers: { ...headers, ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}) }, timeout: 30_000 }, (response) => {
      response.resume();
      response.on('end', () => {
        const status = response.statusCode ?? 0;
        entry.latencies.push(performance.now() - started);
        if (status < 200 || status >= 300) entry.non2xx++;
        if (status >= 500) entry.fiveXx++;
        resolve();
      });
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', () => {
      entry.errors++;
      resolve();
    });
    request.end(body);
  });
}

/** A client: its own connection, going round from a random point, a request every 1/CLIENT_RATE s (at once when late). */
async function client(until: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const interval = 1000 / CLIENT_RATE;
  let next = performance.now() + Math.random() * interval;
  let position = Math.floor(Math.random() * round.length);
  try {
    for (;;) {
      const wait = next - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (performance.now() >= until) return;
      await send(agent, round[position]!);
      position = (position + 1) % round.length;
      next = Math.max(next + interval, performance.now());
    }
  } finally {
    agent.destroy();
  }
}

console.log('seeded; warming up');
// Warm-up, then the memory baseline.
await Promise.all(routes.filter((r) => r.kind === 'read').map((route) => autocannon({ url: origin, connections: 4, duration: 3, requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, ...route.request() }) }] })));
const memoryStart = await memory();

console.log(`running ${CLIENTS} clients at ${CLIENT_RATE} requests a second each for ${SECONDS} s (load average ${loadAverage()})`);
const runStarted = performance.now();
await Promise.all(Array.from({ length: CLIENTS }, () => client(runStarted + SECONDS * 1000)));
const runSeconds = (performance.now() - runStarted) / 1000;
const memoryEnd = await memory();

const total = [...figures.values()].reduce((sum, f) => sum + f.latencies.length + f.errors, 0);
const fiveXx = [...figures.values()].reduce((sum, f) => sum + f.fiveXx, 0);
const ms = (value: number | undefined) => (value === undefined ? '-' : `${value.toFixed(0)} ms`);
console.log(`\nbench:load on ${engine}: ${CLIENTS} clients for ${SECONDS} s, ${total} requests (${(total / runSeconds).toFixed(0)}/s); load average at the end ${loadAverage()}\n`);
console.log('| route | req/s | p50 | p99 | max | non-2xx | 5xx | errors | share of requests |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const route of routes) {
  const f = figures.get(route)!;
  const count = f.latencies.length + f.errors;
  console.log(
    `| ${route.name} | ${(count / runSeconds).toFixed(1)} | ${ms(percentile(f.latencies, 50))} | ${ms(percentile(f.latencies, 99))} | ${ms(f.latencies.length > 0 ? Math.max(...f.latencies) : undefined)} | ${f.non2xx} | ${f.fiveXx} | ${f.errors} | ${((100 * count) / total).toFixed(1)} % |`,
  );
}
const reads = routes.filter((r) => r.kind === 'read').flatMap((r) => figures.get(r)!.latencies);
const readP99 = percentile(reads, 99);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
console.log(`\n5xx: ${fiveXx}; reads together: p50 ${ms(percentile(reads, 50))}, p99 ${ms(readP99)}; errors (timeouts, resets): ${[...figures.values()].reduce((s, f) => s + f.errors, 0)}`);
console.log(`server memory: rss ${mb(memoryStart.rss)} → ${mb(memoryEnd.rss)} (${(((memoryEnd.rss - memoryStart.rss) / memoryStart.rss) * 100).toFixed(1)} %), heap ${mb(memoryStart.heapUsed)} → ${mb(memoryEnd.heapUsed)}`);
const delay = memoryEnd.eventLoopDelay;
console.log(`server event loop during the run: late by p50 ${delay.p50} ms, p99 ${delay.p99} ms, max ${delay.max} ms`);
const threadCpu = Object.entries(memoryEnd.cpuByThread)
  .map(([name, seconds]) => [name, seconds - (memoryStart.cpuByThread[name] ?? 0)] as const)
  .filter(([, seconds]) => seconds >= 0.5)
  .sort((a, b) => b[1] - a[1]);
console.log(`server CPU by thread during the run: ${threadCpu.map(([name, seconds]) => `${name} ${seconds.toFixed(1)} s`).join(', ')}`);
console.log(`goal: no 5xx (${fiveXx === 0 ? 'met' : 'missed'}), read p99 < 100 ms (${readP99 < 100 ? 'met' : 'missed'}), memory within 20 % (${Math.abs(memoryEnd.rss - memoryStart.rss) / memoryStart.rss <= 0.2 ? 'met' : 'missed'})`);

if (SATURATION_SECONDS > 0) {
  const flatOut = routes.filter((r) => r.kind !== 'upload');
  const perRound = flatOut.reduce((sum, r) => sum + r.perRound, 0);
  const results = await Promise.all(
    flatOut.map(async (route) => {
      const connections = Math.max(1, Math.round((CLIENTS * route.perRound) / perRound));
      const result = await autocannon({ url: origin, connections, duration: SATURATION_SECONDS, timeout: 30, requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, ...route.request() }) }] });
      return { route, connections, result };
    }),
  );
  const requests = results.reduce((sum, { result }) => sum + result.requests.total, 0);
  console.log(`\nflat out, reads and writes only (no grading): ${CLIENTS} autocannon clients back to back for ${SATURATION_SECONDS} s, ${(requests / SATURATION_SECONDS).toFixed(0)} requests/s\n`);
  console.log('| route | clients | req/s | p50 | p99 | non-2xx | 5xx |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const { route, connections, result } of results) console.log(`| ${route.name} | ${connections} | ${result.requests.average.toFixed(0)} | ${result.latency.p50} ms | ${result.latency.p99} ms | ${result.non2xx} | ${result['5xx']} |`);
}

server.send({ type: 'stop' });
await new Promise((resolve) => server.once('exit', resolve));
