import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResetMessages } from '../../src/contracts/password-reset.ts';
import type { Runtime } from '../../src/runtime.ts';
import { startAccountsApp, type AccountsApp } from '../support/accounts-app.ts';
import { routeDatabaseKind, type TestDatabase } from '../support/database.ts';
import { TestClock } from '../support/test-clock.ts';
import { resetLinkIn, startSmtpFake, type SmtpFake } from '../support/smtp-server.ts';

// "Forgot password?" through the real app and a real SMTP server on loopback: the link arrives by mail, works once,
// for an hour of the test clock; the answer is the same for any address; and a reset signs out every session,
// closes their sockets and forgets their devices.

const HOST = 'cards.test';
const ORIGIN = `http://${HOST}`;
const PER_ADDRESS = 6;
const PER_ACCOUNT = 3;

interface WsClient {
  on(event: 'close', listener: (code: number) => void): void;
  on(event: 'error', listener: () => void): void;
  once(event: 'open', listener: () => void): void;
  terminate(): void;
}
const WebSocket = createRequire(import.meta.url)('ws') as new (url: string, options: { headers: Record<string, string> }) => WsClient;

let nextAddress = 1;
let nextEmail = 1;

describe.each([await routeDatabaseKind()])('password reset on %s', (kind) => {
  // The link's hour passes on this clock.
  const clock = new TestClock();
  let smtp: SmtpFake;
  let server: AccountsApp;
  let database: TestDatabase;
  let runtime: Runtime;
  let app: FastifyInstance;
  let port: number;

  function browser() {
    const address = `10.9.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;
    const jar: { sid?: string; did?: string } = {};
    async function send(method: 'GET' | 'POST', url: string, body?: object) {
      const cookies = [jar.sid ? `sid=${jar.sid}` : '', jar.did ? `did=${jar.did}` : ''].filter(Boolean).join('; ');
      const response = await app.inject({
        method,
        url,
        headers: { host: HOST, ...(method === 'POST' ? { origin: ORIGIN } : {}), ...(cookies ? { cookie: cookies } : {}) },
        remoteAddress: address,
        ...(body ? { payload: body } : {}),
      });
      for (const name of ['sid', 'did'] as const) {
        const cookie = response.cookies.find((c) => c.name === name);
        if (cookie) jar[name] = cookie.value === '' ? undefined : cookie.value;
      }
      return response;
    }
    return { jar, get: (url: string) => send('GET', url), post: (url: string, body?: object) => send('POST', url, body) };
  }

  async function registered() {
    const b = browser();
    const email = `reset${nextEmail++}@example.com`;
    const response = await b.post('/api/agscard/register', { first_name: 'Ada', last_name: 'Lovelace', email, phone: '5551234567', password: 'Secret123', password_confirmation: 'Secret123' });
    expect(response.statusCode).toBe(201);
    return { browser: b, email, userId: response.json().user.id as string };
  }

  /** Asks for a link from a fresh address and returns the token the mail carries. */
  async function linkFor(email: string): Promise<string> {
    const asked = await browser().post('/api/password-reset', { email });
    expect(asked.statusCode).toBe(202);
    const link = new URL(resetLinkIn(await smtp.nextMailTo(email)));
    expect(link.origin).toBe(ORIGIN);
    expect(link.pathname).toBe('/reset-password');
    return link.searchParams.get('token')!;
  }

  const confirm = (token: string, password = 'NewSecret9') => browser().post('/api/password-reset/confirm', { token, password, password_confirmation: password });
  const check = async (token: string) => (await browser().post('/api/password-reset/check', { token })).json().status as string;
  const signIn = (email: string, password: string) => browser().post('/api/agscard/login', { email, password });
  const eventCount = async () => Number((await database.db.selectFrom('es_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    smtp = await startSmtpFake();
    server = await startAccountsApp(kind, clock, {
      PUBLIC_ORIGIN: ORIGIN,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Card Grader <no-reply@cards.test>',
      AUTH_RATE_LIMIT_PER_ADDRESS: String(PER_ADDRESS),
      AUTH_RATE_LIMIT_PER_ACCOUNT: String(PER_ACCOUNT),
    });
    ({ database, runtime, app } = server);
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('answers an unknown address exactly as a known one, as fast, and mails only the known one', async () => {
    const { email } = await registered();
    const unknown = `nobody${nextEmail++}@example.com`;
    const before = await eventCount();
    const timed = async (address: string) => {
      const started = performance.now();
      const response = await browser().post('/api/password-reset', { email: address });
      return { response, ms: performance.now() - started };
    };
    // Alternated, so a warm-up or a busy moment of the machine falls on both alike.
    const known: number[] = [];
    const stranger: number[] = [];
    for (let i = 0; i < 3; i++) {
      const a = await timed(email);
      const b = await timed(unknown);
      expect(a.response.statusCode).toBe(202);
      expect(b.response.statusCode).toBe(202);
      expect(b.response.body).toBe(a.response.body);
      expect(a.response.json()).toEqual({ message: passwordResetMessages.requested });
      expect(a.response.cookies).toEqual([]); // asking makes no guest session
      known.push(a.ms);
      stranger.push(b.ms);
    }
    const median = (values: number[]) => [...values].sort((x, y) => x - y)[1]!;
    console.log(`reset request answer, median of 3: known address ${median(known).toFixed(1)} ms, unknown ${median(stranger).toFixed(1)} ms`);
    expect(Math.abs(median(known) - median(stranger))).toBeLessThan(50);

    for (let i = 0; i < 3; i++) await smtp.nextMailTo(email);
    expect(smtp.received.some((m) => m.to.includes(unknown))).toBe(false);
    // Three links for the known address, one event each; nothing at all for the unknown one.
    expect((await eventCount()) - before).toBe(3);
  });

  it('mails a link that sets a new password once, and signs out every session: cookies, sockets and devices', async () => {
    const { browser: first, email, userId } = await registered();
    const second = browser();
    expect((await second.post('/api/agscard/login', { email, password: 'Secret123' })).statusCode).toBe(200);
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { host: HOST, origin: ORIGIN, cookie: `sid=${second.jar.sid}` } });
    socket.on('error', () => {});
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve) => socket.once('open', resolve));

    const token = await linkFor(email);
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(await check(token)).toBe('valid');

    const weak = await confirm(token, 'alllowercase');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error).toBe('password: Password must contain at least one uppercase and one lowercase letter');
    expect(await check(token)).toBe('valid'); // a refused password leaves the link working

    const started = Date.now();
    const done = await confirm(token);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ message: passwordResetMessages.done });
    expect(await Promise.race([closed, new Promise((resolve) => setTimeout(() => resolve('still open'), 1_000))])).not.toBe('still open');
    expect(Date.now() - started).toBeLessThan(1_500);

    for (const b of [first, second]) expect((await b.get('/api/user')).statusCode).toBe(401);
    expect((await signIn(email, 'Secret123')).statusCode).toBe(401);
    expect((await signIn(email, 'NewSecret9')).statusCode).toBe(200);

    // Once only.
    expect(await check(token)).toBe('used');
    const again = await confirm(token, 'OtherSecret7');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: passwordResetMessages.used, code: 'reset_link_used' });
    expect((await signIn(email, 'OtherSecret7')).statusCode).toBe(401);

    // On the record: the link by its hash, no email in clear, and a password change made through the link.
    const events = await database.db.selectFrom('es_events').select(['event_type', 'data', 'stream_id']).where('stream_id', 'like', 'password-reset-%').execute();
    const mine = events.filter((e) => (e.data as { userId: string }).userId === userId);
    expect(mine.map((e) => e.event_type).sort()).toEqual(['PasswordResetRequested', 'PasswordResetUsed']);
    expect(JSON.stringify(mine)).not.toContain(email);
    expect(JSON.stringify(mine)).not.toContain(token);
    const changed = await runtime.eventStore.readStream(`user-${userId}`);
    expect(changed.events.filter((e) => e.type === 'PasswordChanged').map((e) => (e.data as { via?: string }).via)).toEqual(['reset_link']);
  });

  it("forgets the account's devices: a browser that signed in before is throttled again", async () => {
    const { browser: owner, email } = await registered();
    const wrong = () => owner.post('/api/agscard/login', { email, password: 'Wrong1234' });
    for (let i = 0; i < PER_ACCOUNT + 1; i++) expect((await wrong()).statusCode).toBe(401); // its device cookie exempts it
    // A stranger's guesses throttle the account; the owner's reset lifts that throttle (not the device exemption).
    const stranger = browser();
    const guesses: number[] = [];
    for (let i = 0; i < PER_ACCOUNT + 1; i++) guesses.push((await stranger.post('/api/agscard/login', { email, password: 'Wrong1234' })).statusCode);
    expect(guesses.at(-1)).toBe(429);
    await confirm(await linkFor(email));
    expect((await signIn(email, 'NewSecret9')).statusCode).toBe(200);
    const after: number[] = [];
    for (let i = 0; i < PER_ACCOUNT + 1; i++) after.push((await wrong()).statusCode);
    expect(after).toContain(429);
  });

  it('a link works for an hour of the clock, then says it has expired', async () => {
    const { email } = await registered();
    const token = await linkFor(email);
    const issuedAt = clock.time;
    try {
      clock.time = issuedAt + 59 * 60_000;
      expect(await check(token)).toBe('valid');
      clock.time = issuedAt + 60 * 60_000;
      expect(await check(token)).toBe('expired');
      const late = await confirm(token);
      expect(late.statusCode).toBe(400);
      expect(late.json()).toEqual({ error: passwordResetMessages.expired, code: 'reset_link_expired' });
      expect((await signIn(email, 'Secret123')).statusCode).toBe(200);
    } finally {
      clock.time = issuedAt + 61 * 60_000;
    }
  });

  it('ends the other links once the password changes: through one of them, or in Settings', async () => {
    const { browser: owner, email } = await registered();
    const [first, second] = [await linkFor(email), await linkFor(email)];
    clock.time += 60_000;
    expect((await confirm(first)).statusCode).toBe(200);
    expect(await check(second)).toBe('superseded');
    const late = await confirm(second, 'OtherSecret7');
    expect(late.statusCode).toBe(400);
    expect(late.json()).toEqual({ error: passwordResetMessages.superseded, code: 'reset_link_superseded' });

    const third = await linkFor(email);
    clock.time += 60_000;
    expect((await signIn(email, 'NewSecret9')).statusCode).toBe(200);
    const signedIn = browser();
    expect((await signedIn.post('/api/agscard/login', { email, password: 'NewSecret9' })).statusCode).toBe(200);
    expect((await signedIn.post('/api/account/password', { current_password: 'NewSecret9', password: 'Settings8Pass', password_confirmation: 'Settings8Pass' })).statusCode).toBe(200);
    expect(await check(third)).toBe('superseded');
    expect((await confirm(third, 'OtherSecret7')).statusCode).toBe(400);
    expect((await owner.get('/api/user')).statusCode).toBe(401);
  });

  it('refuses a token it never issued, and a link with a character changed', async () => {
    const { email } = await registered();
    const token = await linkFor(email);
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [altered, 'not-a-token']) {
      expect(await check(bad)).toBe('invalid');
      const response = await confirm(bad);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: passwordResetMessages.invalid, code: 'reset_link_invalid' });
    }
    expect(await check(token)).toBe('valid');
  });

  it(`limits requests to ${PER_ACCOUNT} per address asked about, known or not, and ${PER_ADDRESS} per client address`, async () => {
    const { email } = await registered();
    const unknown = `nobody${nextEmail++}@example.com`;
    for (const target of [email, unknown]) {
      const statuses: number[] = [];
      for (let i = 0; i < PER_ACCOUNT + 1; i++) statuses.push((await browser().post('/api/password-reset', { email: target })).statusCode);
      expect(statuses).toEqual([...Array(PER_ACCOUNT).fill(202), 429]);
    }
    for (let i = 0; i < PER_ACCOUNT; i++) await smtp.nextMailTo(email);

    const one = browser();
    const statuses: number[] = [];
    for (let i = 0; i < PER_ADDRESS + 1; i++) statuses.push((await one.post('/api/password-reset', { email: `someone${nextEmail++}@example.com` })).statusCode);
    expect(statuses).toEqual([...Array(PER_ADDRESS).fill(202), 429]);
    const refused = await one.post('/api/password-reset', { email });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().code).toBe('rate_limited');

    // Following links is limited per client address too.
    const guesser = browser();
    const guesses: number[] = [];
    for (let i = 0; i < PER_ADDRESS + 1; i++) guesses.push((await guesser.post('/api/password-reset/confirm', { token: `guess${i}`, password: 'NewSecret9', password_confirmation: 'NewSecret9' })).statusCode);
    expect(guesses).toEqual([...Array(PER_ADDRESS).fill(400), 429]);
  });
});
