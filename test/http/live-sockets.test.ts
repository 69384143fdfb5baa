import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeDatabaseKind } from '../support/database.ts';
import { HOST, ORIGIN, startCardsApp, type Browser, type CardsHarness } from './cards-harness.ts';

// Issue 34, "sessions end everywhere at once": a WebSocket lives no longer than its session, whichever way the session
// ends (sign-out, sign-out-everywhere, a password change, or another process revoking it), closed within a second;
// sockets are capped per user and per address and cut when idle; a browser's device cookie stops exempting it from
// the sign-in throttle once the owner changes the password or signs out everywhere. Real sockets on loopback.

/** The part of the `ws` client (the library @fastify/websocket serves with; no types installed) these tests use. */
interface WsClient {
  readyState: number;
  on(event: 'close', listener: (code: number) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  once(event: 'open', listener: () => void): void;
  once(event: 'unexpected-response', listener: (request: unknown, response: { statusCode: number }) => void): void;
  close(): void;
  terminate(): void;
}
const WebSocket = createRequire(import.meta.url)('ws') as {
  new (url: string, options: { headers: Record<string, string>; localAddress: string; autoPong: boolean }): WsClient;
  OPEN: number;
};
type WebSocket = WsClient;

const PER_USER = 3;
const PER_ADDRESS = 6;
const IDLE_MS = 400;

describe('live sockets', () => {
  let h: CardsHarness;
  let port: number;
  const opened: WebSocket[] = [];

  /** A socket to /ws with this browser's cookie, from a loopback address of its own choosing; resolves once open. */
  function openSocket(browser: Browser, options: { localAddress?: string; autoPong?: boolean } = {}): Promise<{ socket: WebSocket; closed: Promise<{ code: number; at: number }> }> {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, {
      headers: { host: HOST, origin: ORIGIN, ...(browser.jar.sid ? { cookie: `sid=${browser.jar.sid}` } : {}) },
      localAddress: options.localAddress ?? '127.0.0.1',
      autoPong: options.autoPong ?? true,
    });
    opened.push(socket);
    const closed = new Promise<{ code: number; at: number }>((resolve) => socket.on('close', (code) => resolve({ code, at: Date.now() })));
    socket.on('error', () => {});
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve({ socket, closed }));
      socket.once('unexpected-response', (_request, response) => reject(new Error(`upgrade refused: ${response.statusCode}`)));
    });
  }
  const within = <T>(promise: Promise<T>, ms: number) => Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms))]);

  beforeAll(async () => {
    h = await startCardsApp(await routeDatabaseKind(), {
      WS_PER_USER: String(PER_USER),
      WS_PER_ADDRESS: String(PER_ADDRESS),
      WS_IDLE_TIMEOUT_MS: String(IDLE_MS),
      AUTH_RATE_LIMIT_PER_ACCOUNT: '2',
      AUTH_RATE_LIMIT_PER_ADDRESS: '1000',
    });
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    port = (h.app.server.address() as AddressInfo).port;
  }, 60_000);
  afterAll(async () => {
    for (const socket of opened) socket.terminate();
    await h?.close();
  });

  it("sign-out closes that session's sockets within 1 s, and only those", async () => {
    const { browser, user } = await h.registered();
    const otherBrowser = h.browser();
    expect((await otherBrowser.post('/api/agscard/login', { email: (await h.app.inject({ url: '/api/user', headers: { host: HOST, cookie: `sid=${browser.jar.sid}` } })).json().email, password: 'Secret123' })).statusCode).toBe(200);
    expect(user.id).toBeTruthy();
    const mine = await openSocket(browser, { localAddress: '127.0.0.11' });
    const theirs = await openSocket(otherBrowser, { localAddress: '127.0.0.12' });
    const signedOutAt = Date.now();
    expect((await browser.post('/api/logout')).statusCode).toBe(200);
    const closed = await within(mine.closed, 1_000);
    expect(closed.code).toBe(4401);
    expect(closed.at - signedOutAt).toBeLessThan(1_000);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(theirs.socket.readyState).toBe(WebSocket.OPEN);
    theirs.socket.close();
  });

  it("sign-out-everywhere closes every socket of the account within 1 s; a password change every other browser's", async () => {
    const { browser } = await h.registered();
    const email = (await browser.get('/api/user')).json().email as string;
    const second = h.browser();
    expect((await second.post('/api/agscard/login', { email, password: 'Secret123' })).statusCode).toBe(200);
    const sockets = [await openSocket(browser, { localAddress: '127.0.0.21' }), await openSocket(second, { localAddress: '127.0.0.22' })];
    const before = Date.now();
    const changed = await browser.post('/api/account/password', { current_password: 'Secret123', password: 'Secret456', password_confirmation: 'Secret456' });
    expect(changed.statusCode).toBe(200);
    for (const { closed } of sockets) expect((await within(closed, 1_000)).at - before).toBeLessThan(1_000);

    const third = await openSocket(browser, { localAddress: '127.0.0.23' });
    const everywhere = Date.now();
    expect((await browser.post('/api/account/sign-out-everywhere')).statusCode).toBe(200);
    expect((await within(third.closed, 1_000)).at - everywhere).toBeLessThan(1_000);
  });

  it('a session revoked by another process (straight in the database) has its socket closed within 1 s', async () => {
    const { browser, user } = await h.registered();
    const { closed } = await openSocket(browser, { localAddress: '127.0.0.31' });
    const revokedAt = Date.now();
    await h.database.db.updateTable('sessions').set({ revoked_at: new Date() }).where('user_id', '=', user.id).execute();
    const { code, at } = await within(closed, 1_500);
    expect(code).toBe(4401);
    expect(at - revokedAt).toBeLessThan(1_000);
  });

  it(`at most ${PER_USER} sockets per user and ${PER_ADDRESS} per address; more are closed 4429`, async () => {
    const { browser } = await h.registered();
    const mine = await Promise.all(Array.from({ length: PER_USER }, (_, i) => openSocket(browser, { localAddress: `127.0.1.${i + 1}` })));
    const extra = await openSocket(browser, { localAddress: '127.0.1.9' });
    expect((await within(extra.closed, 1_000)).code).toBe(4429);
    for (const { socket } of mine) expect(socket.readyState).toBe(WebSocket.OPEN);

    const guests = await Promise.all(Array.from({ length: PER_ADDRESS }, () => openSocket(h.browser(), { localAddress: '127.0.2.1' })));
    const overAddress = await openSocket(h.browser(), { localAddress: '127.0.2.1' });
    expect((await within(overAddress.closed, 1_000)).code).toBe(4429);
    for (const { socket } of [...mine, ...guests]) socket.close();
  });

  it('a socket whose client stops answering pings is cut after the idle timeout; one that answers stays', async () => {
    const silent = await openSocket(h.browser(), { localAddress: '127.0.3.1', autoPong: false });
    const answering = await openSocket(h.browser(), { localAddress: '127.0.3.2' });
    const { at } = await within(silent.closed, IDLE_MS * 2 + 1_000);
    expect(at).toBeGreaterThan(0);
    expect(answering.socket.readyState).toBe(WebSocket.OPEN);
    answering.socket.close();
  });

  it("after sign-out-everywhere the browser's device cookie no longer exempts it from the sign-in throttle", async () => {
    const email = `devices-${Date.now()}@example.com`;
    const registered = await h.app.inject({ method: 'POST', url: '/api/agscard/register', remoteAddress: '10.77.0.1', headers: { host: HOST, origin: ORIGIN }, payload: { first_name: 'Ada', last_name: 'Lovelace', email, phone: '5551234567', password: 'Secret123', password_confirmation: 'Secret123' } });
    expect(registered.statusCode).toBe(201);
    const did = registered.cookies.find((c) => c.name === 'did')!.value;
    const sid = registered.cookies.find((c) => c.name === 'sid')!.value;
    const wrongPassword = () => h.app.inject({ method: 'POST', url: '/api/agscard/login', remoteAddress: '10.77.0.1', headers: { host: HOST, origin: ORIGIN, cookie: `did=${did}` }, payload: { email, password: 'Wrong1234' } });
    // Known device: wrong passwords are refused (401), never throttled.
    for (let i = 0; i < 4; i++) expect((await wrongPassword()).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'POST', url: '/api/account/sign-out-everywhere', remoteAddress: '10.77.0.1', headers: { host: HOST, origin: ORIGIN, cookie: `sid=${sid}` } })).statusCode).toBe(200);
    const after = [];
    for (let i = 0; i < 4; i++) after.push((await wrongPassword()).statusCode);
    expect(after).toContain(429);
  });
});
