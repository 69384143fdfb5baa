// npm run bench:load (issue 15): the real server on loopback (bench/load-server.ts, its own process, PostgreSQL when
// reachable) under BENCH_CLIENTS (default 200) concurrent clients for BENCH_SECONDS (default 60): signed-in reads
// (my-cards, portfolio, a card page, leaderboard), writes (portfolio edits and additions) and grading uploads of
// distinct photos, each route its own autocannon instance with its share of the clients. Per route: requests per
// second, p50, p99, non-2xx; the 5xx count; the server's memory after warm-up and at the end.
// Goal: no 5xx, reads' p99 under 100 ms while grading runs, memory within 20 %.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { SAMPLE_CARDS_DIR } from '../src/commands/cards/restore-sample-cards.ts';
import { post, registerBenchUser } from './http-load.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const USERS = 20;

const server = fork(new URL('./load-server.ts', import.meta.url), [], {
  env: {
    ...process.env,
    LOG_LEVEL: 'silent',
    GRADE_LIMIT_USER_PER_MINUTE: '1000000',
    GRADE_LIMIT_USER_PER_DAY: '1000000',
    AUTH_RATE_LIMIT_PER_ADDRESS: '1000000',
  },
  execArgv: ['--expose-gc'],
});
const fromServer = <T>(type: string) => new Promise<T>((resolve) => server.on('message', function on(message: { type: string }) {
  if (message.type !== type) return;
  server.off('message', on);
  resolve(message as T);
}));
process.on('exit', () => server.kill());
const { port, engine } = await fromServer<{ port: number; engine: string }>('ready');
console.log(`server on ${engine}, port ${port}; seeding ${USERS} users`);
const memory = async () => {
  const answer = fromServer<{ rss: number; heapUsed: number }>('memory');
  server.send({ type: 'memory' });
  return answer;
};

// Users with something to read: a graded card and 30 portfolio cards each.
const photos = ['1-gem-mint.jpg', '2-off-center.jpg', '3-whitened-corner.jpg', '4-scratched.jpg', '5-edge-wear.jpg'].map((name) => readFileSync(new URL(name, SAMPLE_CARDS_DIR)));
// Registered one after the other (20 registrations at once have answered a 500 here: to look into).
const cookies: string[] = [];
for (let n = 0; n < USERS; n++) cookies.push((await registerBenchUser(port)).cookie);
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
  share: number;
  request: () => { method: 'GET' | 'POST' | 'PATCH'; path: string; headers: Record<string, string>; body?: string | Buffer };
}
const routes: Route[] = [
  { name: 'GET /api/my-cards', kind: 'read', share: 0.2, request: () => ({ method: 'GET', path: '/api/my-cards', headers: { cookie: pick(users).cookie, 'accept-encoding': 'gzip' } }) },
  { name: 'GET /api/portfolio', kind: 'read', share: 0.2, request: () => ({ method: 'GET', path: '/api/portfolio', headers: { cookie: pick(users).cookie, 'accept-encoding': 'gzip' } }) },
  { name: 'GET /api/card/:id', kind: 'read', share: 0.2, request: () => ({ method: 'GET', path: `/api/card/${pick(users).cardId}`, headers: { 'accept-encoding': 'gzip' } }) },
  { name: 'GET /api/leaderboard', kind: 'read', share: 0.15, request: () => ({ method: 'GET', path: '/api/leaderboard', headers: { 'accept-encoding': 'gzip' } }) },
  {
    name: 'PATCH /api/portfolio/:id',
    kind: 'write',
    share: 0.1,
    request: () => {
      const user = pick(users);
      return { method: 'PATCH', path: `/api/portfolio/${pick(user.portfolioIds)}`, headers: { cookie: user.cookie, origin, 'content-type': 'application/json' }, body: JSON.stringify({ currentPrice: `${Math.floor(Math.random() * 1000)}.00` }) };
    },
  },
  { name: 'POST /api/portfolio', kind: 'write', share: 0.05, request: () => ({ method: 'POST', path: '/api/portfolio', headers: { cookie: pick(users).cookie, origin, 'content-type': 'application/json' }, body: JSON.stringify({ cardName: `Bench ${Math.random()}` }) }) },
  { name: 'POST /api/grade-card', kind: 'upload', share: 0.1, request: () => ({ method: 'POST', path: '/api/grade-card', headers: { cookie: pick(users).cookie, origin, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, body: uploadBody() }) },
];

console.log('seeded; warming up');
// Warm-up, then the memory baseline.
await Promise.all(routes.filter((r) => r.kind === 'read').map((route) => autocannon({ url: origin, connections: 4, duration: 3, requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, ...route.request() }) }] })));
const memoryStart = await memory();

console.log(`running ${CLIENTS} clients for ${SECONDS} s`);
const results = await Promise.all(
  routes.map(async (route) => {
    const connections = Math.max(1, Math.round(CLIENTS * route.share));
    const result = await autocannon({
      url: origin,
      connections,
      duration: SECONDS,
      timeout: 30,
      requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, ...route.request() }) }],
    });
    return { route, connections, result };
  }),
);
const memoryEnd = await memory();
server.send({ type: 'stop' });

const total = results.reduce((sum, { result }) => sum + result.requests.total, 0);
const fiveXx = results.reduce((sum, { result }) => sum + result['5xx'], 0);
console.log(`\nbench:load on ${engine}: ${CLIENTS} clients for ${SECONDS} s, ${total} requests\n`);
console.log('| route | clients | req/s | p50 | p99 | non-2xx | 5xx | share of requests |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const { route, connections, result } of results) {
  console.log(
    `| ${route.name} | ${connections} | ${result.requests.average.toFixed(0)} | ${result.latency.p50} ms | ${result.latency.p99} ms | ${result.non2xx} | ${result['5xx']} | ${((100 * result.requests.total) / total).toFixed(1)} % |`,
  );
}
const readP99 = Math.max(...results.filter((r) => r.route.kind === 'read').map((r) => r.result.latency.p99));
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
console.log(`\n5xx: ${fiveXx}; worst read p99: ${readP99} ms; errors (timeouts, resets): ${results.reduce((s, r) => s + r.result.errors + r.result.timeouts, 0)}`);
console.log(`server memory: rss ${mb(memoryStart.rss)} → ${mb(memoryEnd.rss)} (${(((memoryEnd.rss - memoryStart.rss) / memoryStart.rss) * 100).toFixed(1)} %), heap ${mb(memoryStart.heapUsed)} → ${mb(memoryEnd.heapUsed)}`);
console.log(`goal: no 5xx (${fiveXx === 0 ? 'met' : 'missed'}), read p99 < 100 ms (${readP99 < 100 ? 'met' : 'missed'}), memory within 20 % (${Math.abs(memoryEnd.rss - memoryStart.rss) / memoryStart.rss <= 0.2 ? 'met' : 'missed'})`);
await new Promise((resolve) => server.once('exit', resolve));
