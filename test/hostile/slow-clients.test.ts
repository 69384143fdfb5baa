import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeDatabaseKind } from '../support/database.ts';
import { HOST, ORIGIN, startCardsApp, type CardsHarness } from '../http/cards-harness.ts';

// Issue 34, "a server that no slow or anonymous client can wear down", over real sockets on loopback: request bodies
// and headers dripped a byte at a time are cut at their deadline with a 408 (short deadlines here, through the
// config), while /healthz keeps answering; connections per address are capped; guest-callable heavy calls are
// limited and write no session they do not need. Bounded: 300 slow sockets, each closed by the test at the latest.

const BODY_DEADLINE_MS = 1_500;
const HEADERS_DEADLINE_MS = 1_000;
/**
 * Node looks for late requests every quarter of the headers' deadline (app.ts); plus a loaded machine's slack (CI
 * once saw the last of 300 cuts 3 s late while other suites filled both cores): still seconds, where an uncut drip
 * stayed open for minutes.
 */
const CUT_SLACK_MS = HEADERS_DEADLINE_MS / 4 + 3_000;
const SLOW_SOCKETS = 300;

interface SlowSocket {
  startedAt: number;
  closedAt?: number;
  answer: string;
}

/** A connection that sends `head` and then one byte of `drip` every `everyMs`, until the server closes it. */
function slowSocket(port: number, head: string, drip: string, everyMs: number): Promise<SlowSocket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const result: SlowSocket = { startedAt: Date.now(), answer: '' };
    let timer: NodeJS.Timeout | undefined;
    let sent = 0;
    socket.on('connect', () => {
      result.startedAt = Date.now();
      socket.write(head);
      timer = setInterval(() => {
        if (!socket.destroyed) socket.write(drip[sent++ % drip.length]!);
      }, everyMs);
      resolve(result);
    });
    socket.on('data', (chunk) => (result.answer += chunk.toString('utf8')));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      result.closedAt = Date.now();
    });
    // The test stops itself: no socket outlives 15 s.
    setTimeout(() => socket.destroy(), 15_000).unref();
    socket.once('error', reject);
  });
}

function healthzOnce(port: number, agent: http.Agent): Promise<number> {
  const startedAt = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/healthz', agent, headers: { host: HOST } }, (response) => {
        response.resume();
        response.on('end', () => (response.statusCode === 200 ? resolve(performance.now() - startedAt) : reject(new Error(`healthz ${response.statusCode}`))));
      })
      .on('error', reject);
  });
}

async function healthzLatencies(port: number, count: number): Promise<{ p50: number; p99: number; max: number }> {
  const agent = new http.Agent({ keepAlive: false });
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    latencies.push(await healthzOnce(port, agent));
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]! * 10) / 10;
  return { p50: at(0.5), p99: at(0.99), max: at(1) };
}

/**
 * How late this process's timers ran (the longest delay past their time) while `work` ran: on a shared, loaded machine
 * (load averages of 16 on two cores were seen) the test process itself can be descheduled for seconds, and time bounds
 * are then on the machine, not on the server. The bounds below allow for it.
 */
async function withTimerLag<T>(work: () => Promise<T>): Promise<{ result: T; lagMs: number }> {
  let lagMs = 0;
  let expected = performance.now() + 20;
  const monitor = setInterval(() => {
    lagMs = Math.max(lagMs, performance.now() - expected);
    expected = performance.now() + 20;
  }, 20);
  try {
    return { result: await work(), lagMs: Math.round(lagMs) };
  } finally {
    clearInterval(monitor);
  }
}

const waitUntil = async (done: () => boolean, timeoutMs: number) => {
  for (const deadline = Date.now() + timeoutMs; !done() && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 50));
};

describe('slow and anonymous clients', () => {
  let h: CardsHarness;
  let port: number;

  beforeAll(async () => {
    h = await startCardsApp(await routeDatabaseKind(), {
      REQUEST_BODY_TIMEOUT_MS: String(BODY_DEADLINE_MS),
      REQUEST_HEADERS_TIMEOUT_MS: String(HEADERS_DEADLINE_MS),
      CONNECTIONS_PER_ADDRESS: '1000',
      QUOTE_LIMIT_GUEST_PER_MINUTE: '3',
      SAMPLE_CARDS_LIMIT_GUEST_PER_HOUR: '1',
    });
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    port = (h.app.server.address() as AddressInfo).port;
  }, 60_000);
  afterAll(async () => h?.close());

  it(`${SLOW_SOCKETS} bodies dripped a byte every 250 ms are each cut with a 408 at the deadline, while /healthz keeps answering fast`, async () => {
    const baseline = await healthzLatencies(port, 50);
    const head = `POST /api/portfolio HTTP/1.1\r\nHost: ${HOST}\r\nOrigin: ${ORIGIN}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`;
    const { result: { sockets, underDrip }, lagMs } = await withTimerLag(async () => {
      const sockets = await Promise.all(Array.from({ length: SLOW_SOCKETS }, () => slowSocket(port, head, '{"cardName":"', 250)));
      const underDrip = await healthzLatencies(port, 100);
      await waitUntil(() => sockets.every((s) => s.closedAt !== undefined), BODY_DEADLINE_MS + CUT_SLACK_MS + 10_000);
      return { sockets, underDrip };
    });
    const lifetimes = sockets.map((s) => (s.closedAt ?? Infinity) - s.startedAt).sort((a, b) => a - b);
    const cut = sockets.filter((s) => s.answer.startsWith('HTTP/1.1 408') && s.answer.includes('"code":"request_timeout"')).length;
    console.info('slow bodies', { sockets: SLOW_SOCKETS, cutWith408: cut, lifetimeMs: { min: lifetimes[0], max: lifetimes.at(-1) }, healthzMs: { baseline, underDrip }, testProcessTimerLagMs: lagMs });
    expect(cut).toBe(SLOW_SOCKETS);
    expect(lifetimes[0]).toBeGreaterThanOrEqual(BODY_DEADLINE_MS - 50);
    expect(lifetimes.at(-1)).toBeLessThanOrEqual(BODY_DEADLINE_MS + CUT_SLACK_MS + lagMs);
    // Two shared cores, and the 300 dripping sockets driven from this same process (the moment they are all cut
    // shows as one slow answer of 100-250 ms here; bench:slow-clients measures a server of its own): bounds well
    // above the idle figures, far below the seconds a starved server took (7.5 s for the first answer after a drip).
    expect(underDrip.p50).toBeLessThan(25 + lagMs);
    expect(underDrip.p99).toBeLessThan(500 + lagMs);
  }, 30_000);

  it('headers dripped a byte at a time are cut at their own deadline', async () => {
    const sockets = await Promise.all(Array.from({ length: 20 }, () => slowSocket(port, 'GET /healthz HTTP/1.1\r\n', 'X-Slow: aaaaaaaa', 100)));
    await waitUntil(() => sockets.every((s) => s.closedAt !== undefined), HEADERS_DEADLINE_MS + CUT_SLACK_MS + 3_000);
    for (const socket of sockets) {
      expect(socket.answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(socket.closedAt! - socket.startedAt).toBeLessThanOrEqual(HEADERS_DEADLINE_MS + CUT_SLACK_MS);
    }
  }, 15_000);

  it('a quote for a cookie-less caller writes no session, and guests are limited per address', async () => {
    const sessions = async () => Number((await h.database.db.selectFrom('sessions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await sessions();
    const quote = () => h.app.inject({ method: 'POST', url: '/api/orders/quote', remoteAddress: '10.9.9.9', headers: { host: HOST, origin: ORIGIN }, payload: { selection: {} } });
    const answers = [await quote(), await quote(), await quote(), await quote()];
    expect(answers.slice(0, 3).map((a) => a.cookies.length)).toEqual([0, 0, 0]);
    expect(answers[3]!.statusCode).toBe(429);
    expect(answers[3]!.json().code).toBe('quote_rate_limited');
    expect(await sessions()).toBe(before);
  });

  it('restoring the sample cards is limited for a guest (five gradings a call)', async () => {
    const guest = h.browser();
    const first = await guest.post('/api/restore-sample-cards');
    expect(first.statusCode).toBe(200);
    const again = await h.browser().post('/api/restore-sample-cards');
    expect(again.statusCode === 429 || again.statusCode === 200).toBe(true);
    // Each harness browser has an address of its own: the same browser (same address) is refused.
    const second = await guest.post('/api/restore-sample-cards');
    expect(second.statusCode).toBe(429);
    expect(second.json().code).toBe('sample_cards_rate_limited');
    expect(second.headers['retry-after']).toBeDefined();
  }, 60_000);
});

describe('connections per address', () => {
  let h: CardsHarness;
  let port: number;
  beforeAll(async () => {
    h = await startCardsApp(await routeDatabaseKind(), { CONNECTIONS_PER_ADDRESS: '5' });
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    port = (h.app.server.address() as AddressInfo).port;
  }, 60_000);
  afterAll(async () => h?.close());

  it('a sixth connection from one address is answered 429 and closed; one from another loopback address is not', async () => {
    const open = await Promise.all(Array.from({ length: 5 }, () => new Promise<net.Socket>((resolve) => { const s = net.connect(port, '127.0.0.1', () => resolve(s)); })));
    const refused = await slowSocket(port, '', ' ', 1_000);
    await waitUntil(() => refused.closedAt !== undefined, 3_000);
    expect(refused.answer).toMatch(/^HTTP\/1\.1 429 /);
    expect(refused.answer).toContain('"code":"too_many_connections"');
    const otherAddress = await new Promise<number>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port, path: '/healthz', localAddress: '127.0.0.2', headers: { host: HOST } }, (r) => { r.resume(); resolve(r.statusCode!); }).on('error', reject);
    });
    expect(otherAddress).toBe(200);
    open[0]!.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const afterOneClosed = await healthzOnce(port, new http.Agent({ keepAlive: false }));
    expect(afterOneClosed).toBeGreaterThan(0);
    for (const socket of open) socket.destroy();
  });
});
