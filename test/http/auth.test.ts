import { createHash } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guestDataClaimers, type GuestDataClaimer } from '../../src/commands/accounts/guest-data-claimers.ts';
import { guestSessionStream, userStream } from '../../src/commands/accounts/streams.ts';
import { GUEST_SESSION_TTL_MS } from '../../src/infra/auth/session-repository.ts';
import type { Runtime } from '../../src/runtime.ts';
import { startAccountsApp, type AccountsApp } from '../support/accounts-app.ts';
import { routeDatabaseKind, type TestDatabase } from '../support/database.ts';
import { TestClock } from '../support/test-clock.ts';
import { multipartBody } from './cards-harness.ts';

// The accounts API through the real app (buildApp over a real runtime), as a browser uses it:
// cookies kept per browser, Origin sent on writes, one client address per test so the
// per-address rate limit of one test never touches another.

const HOST = 'cards.test';
const ORIGIN = `http://${HOST}`;
const PER_ADDRESS = 12;
const PER_ACCOUNT = 3;

let nextAddress = 1;
let nextEmail = 1;

function account(overrides: Record<string, unknown> = {}) {
  const n = nextEmail++;
  return {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: `ada${n}@example.com`,
    phone: '5551234567',
    password: 'Secret123',
    password_confirmation: 'Secret123',
    is_marketing_notifications_enabled: true,
    ...overrides,
  };
}

describe.each([await routeDatabaseKind()])('accounts API on %s', (kind) => {
  let database: TestDatabase;
  let runtime: Runtime;
  let app: FastifyInstance;
  let server: AccountsApp;
  const clock = new TestClock();

  /** A browser: its own address and cookie jar. */
  function browser() {
    const address = `10.0.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;
    const jar = { sid: undefined as string | undefined };
    async function send(method: 'GET' | 'POST', url: string, options: { body?: unknown; raw?: string; headers?: Record<string, string>; sid?: string } = {}) {
      const headers: Record<string, string> = { host: HOST, ...(method === 'POST' ? { origin: ORIGIN } : {}), ...options.headers };
      const sid = options.sid ?? jar.sid;
      if (sid) headers.cookie = `sid=${sid}`;
      if (options.raw !== undefined) headers['content-type'] = 'application/json';
      const response = await app.inject({
        method,
        url,
        headers,
        remoteAddress: address,
        ...(options.raw !== undefined ? { payload: options.raw } : options.body !== undefined ? { payload: options.body as object } : {}),
      });
      const cookie = response.cookies.find((c) => c.name === 'sid');
      if (cookie) jar.sid = cookie.value === '' ? undefined : cookie.value;
      return response;
    }
    return {
      address,
      jar,
      get: (url: string, options?: Parameters<typeof send>[2]) => send('GET', url, options),
      post: (url: string, body?: unknown, options?: Parameters<typeof send>[2]) => send('POST', url, { ...options, body }),
      send,
    };
  }

  async function registered(overrides: Record<string, unknown> = {}) {
    const b = browser();
    const input = account(overrides);
    const response = await b.post('/api/agscard/register', input);
    expect(response.statusCode).toBe(201);
    return { browser: b, input, user: response.json().user as { id: string; username: string } };
  }

  /** What a refused request must not have changed. */
  async function snapshot() {
    const [users, events, sessions] = await Promise.all([
      database.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      database.db.selectFrom('es_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      database.db.selectFrom('sessions').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', 'is not', null).executeTakeFirstOrThrow(),
    ]);
    return { users: Number(users.n), events: Number(events.n), userSessions: Number(sessions.n) };
  }

  async function expectRefused(response: LightMyRequestResponse, status: number, code: string, error?: string | RegExp) {
    expect(response.statusCode).toBe(status);
    const body = response.json();
    expect(body.code).toBe(code);
    if (typeof error === 'string') expect(body.error).toBe(error);
    else if (error) expect(body.error).toMatch(error);
    return body;
  }

  const sessionRow = (sid: string) =>
    database.db.selectFrom('sessions').selectAll().where('id', '=', createHash('sha256').update(sid).digest('hex')).executeTakeFirstOrThrow();

  /** A guest's first write (feedback, the cheapest): it stores the guest session and sets the cookie (issue 15). */
  async function guestWrite(b: ReturnType<typeof browser>, headers: Record<string, string> = {}) {
    const { body, contentType } = await multipartBody([['name', 'Ada'], ['email', 'ada@example.com'], ['category', 'general'], ['feedbackText', 'A first write from this browser.']]);
    const response = await b.send('POST', '/api/feedback', { body, headers: { 'content-type': contentType, ...headers } });
    expect(response.statusCode).toBe(201);
    return response;
  }

  beforeAll(async () => {
    server = await startAccountsApp(kind, clock, {
      PUBLIC_ORIGIN: ORIGIN,
      TRUSTED_ORIGINS: 'https://partner.example',
      TRUST_PROXY: '1', // one proxy in front: X-Forwarded-Proto says HTTPS; client addresses come from remoteAddress
      AUTH_RATE_LIMIT_PER_ADDRESS: String(PER_ADDRESS),
      AUTH_RATE_LIMIT_PER_ACCOUNT: String(PER_ACCOUNT),
    });
    ({ database, runtime, app } = server);
  });

  afterAll(async () => {
    await server?.close();
  });

  describe('sessions', () => {
    it("gives a guest no session for reading, and one in an HttpOnly, SameSite=Lax cookie with the first write; keeps it", async () => {
      const b = browser();
      const read = await b.get('/api/user');
      await expectRefused(read, 401, 'unauthorized', 'Not signed in');
      expect(read.cookies).toEqual([]);
      const first = await guestWrite(b);
      const cookie = first.cookies.find((c) => c.name === 'sid')!;
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(cookie.secure).toBeUndefined();
      expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits
      const row = await sessionRow(cookie.value);
      expect(row).toMatchObject({ user_id: null, revoked_at: null });
      expect(row.id).not.toBe(cookie.value); // only the token's hash is stored
      expect(row.expires_at.getTime() - clock.time).toBe(GUEST_SESSION_TTL_MS);

      const again = await b.get('/api/user');
      expect(again.cookies.find((c) => c.name === 'sid')).toBeUndefined();
    });

    it('answers GET /api/session with 200 for everyone: { user: null } for a guest, the user once signed in', async () => {
      const b = browser();
      const guest = await b.get('/api/session');
      expect(guest.statusCode).toBe(200);
      expect(guest.json()).toEqual({ user: null });
      expect(guest.cookies).toEqual([]);
      await guestWrite(b);
      expect((await b.get('/api/session')).json()).toEqual({ user: null });
      const registered = await b.post('/api/agscard/register', { first_name: 'Sam', last_name: 'Session', email: `sam.${Date.now()}@example.com`, phone: '5551234567', password: 'Secret123', password_confirmation: 'Secret123' });
      expect(registered.statusCode).toBe(201);
      const signedIn = await b.get('/api/session');
      expect(signedIn.statusCode).toBe(200);
      expect(signedIn.json()).toEqual({ user: (await b.get('/api/user')).json() });
    });

    it('stores no session for health probes', async () => {
      const count = async () => Number((await database.db.selectFrom('sessions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      const before = await count();
      const probe = await browser().get('/healthz');
      expect(probe.statusCode).toBe(200);
      expect(probe.cookies).toEqual([]);
      expect(await count()).toBe(before);
    });

    it('sets Secure behind HTTPS', async () => {
      const response = await guestWrite(browser(), { 'x-forwarded-proto': 'https' });
      expect(response.cookies.find((c) => c.name === 'sid')!.secure).toBe(true);
    });

    it('starts a new guest session when the old one has expired', async () => {
      const b = browser();
      await guestWrite(b);
      const before = b.jar.sid;
      clock.time += GUEST_SESSION_TTL_MS + 1;
      try {
        await guestWrite(b);
      } finally {
        clock.time -= GUEST_SESSION_TTL_MS + 1;
      }
      expect(b.jar.sid).toBeDefined();
      expect(b.jar.sid).not.toBe(before);
    });
  });

  describe('register', () => {
    it('creates the account, answers 201 { user } and signs the browser in with a new session id', async () => {
      const b = browser();
      await guestWrite(b);
      const guestSid = b.jar.sid!;
      const input = account({ email: 'Grace.Hopper@Example.com', first_name: 'Grace', last_name: 'Hopper' });
      const response = await b.post('/api/agscard/register', input);
      expect(response.statusCode).toBe(201);
      const { user } = response.json();
      expect(user).toEqual({
        id: expect.any(String),
        username: 'GraceH',
        email: 'Grace.Hopper@Example.com',
        first_name: 'Grace',
        last_name: 'Hopper',
        phone: '5551234567',
        agsCardToken: 'built-in',
      });
      expect(b.jar.sid).not.toBe(guestSid);
      expect((await b.get('/api/user')).json()).toEqual(user);

      // The guest cookie from before registration no longer works.
      const old = await b.get('/api/user', { sid: guestSid });
      await expectRefused(old, 401, 'unauthorized');
      expect((await sessionRow(guestSid)).revoked_at).not.toBeNull();

      // Stored as the argon2id hash, never the password.
      const row = await database.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
      expect(row.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(row.password).not.toContain(input.password);

      // Events carry who, which command and when (from the injected clock).
      const { events } = await runtime.eventStore.readStream(userStream(user.id).streamId);
      expect(events.map((e) => e.type)).toEqual(['UserRegistered']);
      expect(events[0]!.metadata).toMatchObject({
        actor: { kind: 'guest', id: (await sessionRow(guestSid)).guest_id },
        commandId: expect.any(String),
        timestamp: new Date(clock.time).toISOString(),
      });
    });

    it('refuses a second registration of the same email in any letter case: 409 email_taken, nothing changed', async () => {
      const { input } = await registered({ email: 'dup@example.com' });
      const before = await snapshot();
      const b = browser();
      const response = await b.post('/api/agscard/register', account({ email: ' DUP@Example.COM ' }));
      await expectRefused(response, 409, 'email_taken', 'This email is already registered');
      // The client's toast rule (SPEC.md §5): 'already registered' means Account Already Exists.
      expect(response.json().error).toContain('already registered');
      expect(await snapshot()).toEqual(before);
      expect(input.email).toBe('dup@example.com');
    });

    it('refuses malformed JSON, missing and over-long fields, and broken password rules with 400, changing nothing', async () => {
      const before = await snapshot();
      const b = browser();
      await expectRefused(await b.send('POST', '/api/agscard/register', { raw: '{"email": "x@example.com",' }), 400, 'invalid_json');
      await expectRefused(await b.post('/api/agscard/register'), 400, 'invalid_request');
      await expectRefused(await b.post('/api/agscard/register', []), 400, 'invalid_request');

      const cases: [Record<string, unknown>, string][] = [
        [{ first_name: undefined }, 'First name is required'],
        [{ first_name: 'A' }, 'First name is required'],
        [{ last_name: ' ' }, 'Last name is required'],
        [{ email: undefined }, 'Please enter a valid email'],
        [{ email: 'not-an-email' }, 'Please enter a valid email'],
        [{ phone: '12345' }, 'Phone number must be at least 10 digits'],
        [{ phone: 12345678901 }, 'Phone number must be at least 10 digits'],
        [{ password: 'Ab1', password_confirmation: 'Ab1' }, 'Password must be at least 6 characters'],
        [{ password: 'lowercase1', password_confirmation: 'lowercase1' }, 'Password must contain at least one uppercase and one lowercase letter'],
        [{ password_confirmation: 'Secret124' }, 'Passwords do not match'],
        [{ is_marketing_notifications_enabled: 'yes' }, 'Marketing notifications must be true or false'],
        [{ first_name: 'A'.repeat(101) }, 'First name must be at most 100 characters'],
        [{ email: `${'a'.repeat(250)}@example.com` }, 'Email must be at most 255 characters'],
        [{ phone: '5'.repeat(51) }, 'Phone number must be at most 50 characters'],
        [{ password: `Aa${'x'.repeat(254)}`, password_confirmation: `Aa${'x'.repeat(254)}` }, 'Password must be at most 255 characters'],
      ];
      for (const [overrides, message] of cases) {
        const body = await expectRefused(await browser().post('/api/agscard/register', account(overrides)), 400, 'invalid_request');
        expect(body.error, JSON.stringify(overrides).slice(0, 80)).toContain(message);
        expect(body.details[0].message).toBe(message);
      }
      const mismatch = await browser().post('/api/agscard/register', account({ password_confirmation: 'Secret124' }));
      expect(mismatch.json().details).toEqual([{ path: 'password_confirmation', message: 'Passwords do not match' }]);
      expect(await snapshot()).toEqual(before);
      expect(b.jar.sid).toBeUndefined(); // a refused write stores no guest session (issue 15)
      await expectRefused(await b.get('/api/user'), 401, 'unauthorized');
    });

    it('makes usernames unique from the first name and last initial, never from the email', async () => {
      const first = await registered({ email: 'same.name@example.com', first_name: 'Jane', last_name: 'Doe' });
      const second = await registered({ email: 'same.name@example.org', first_name: 'Jane', last_name: 'Dawson' });
      expect([first.user.username, second.user.username]).toEqual(['JaneD', 'JaneD2']);
    });
  });

  describe('login', () => {
    it('signs in with the right password in any letter case of the email, rotating the session id', async () => {
      const { input, user } = await registered();
      const b = browser();
      await guestWrite(b);
      const guestSid = b.jar.sid!;
      const response = await b.post('/api/agscard/login', { email: input.email.toUpperCase(), password: input.password });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ user: expect.objectContaining({ id: user.id, email: input.email, first_name: 'Ada' }) });
      const cookie = response.cookies.find((c) => c.name === 'sid')!;
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(cookie.value).not.toBe(guestSid);
      expect((await b.get('/api/user')).json().id).toBe(user.id);
      await expectRefused(await b.get('/api/user', { sid: guestSid }), 401, 'unauthorized');

      const { events } = await runtime.eventStore.readStream(userStream(user.id).streamId);
      expect(events.map((e) => e.type)).toEqual(['UserRegistered', 'UserLoggedIn']);
    });

    it('answers a wrong password and an unknown email with the same 401; only the audit trail records the wrong password', async () => {
      const { input } = await registered();
      const before = await snapshot();
      const b = browser();
      const wrong = await b.post('/api/agscard/login', { email: input.email, password: 'Wrong123' });
      const unknown = await b.post('/api/agscard/login', { email: 'nobody@example.com', password: 'Wrong123' });
      await expectRefused(wrong, 401, 'invalid_credentials', 'Invalid email or password');
      expect(unknown.statusCode).toBe(401);
      expect(unknown.body).toBe(wrong.body);
      // One SignInRefused on the account's stream (no password in it); nothing else changed.
      expect(await snapshot()).toEqual({ ...before, events: before.events + 1 });
      const last = await database.db.selectFrom('es_events').select(['event_type', 'data']).orderBy('global_position', 'desc').limit(1).executeTakeFirstOrThrow();
      expect(last.event_type).toBe('SignInRefused');
      expect(JSON.stringify(last.data)).not.toContain('Wrong123');
      await expectRefused(await b.get('/api/user'), 401, 'unauthorized');
    });

    it('refuses malformed JSON, missing and over-long fields with 400', async () => {
      const b = browser();
      await expectRefused(await b.send('POST', '/api/agscard/login', { raw: 'email=a' }), 400, 'invalid_json');
      await expectRefused(await b.post('/api/agscard/login', { email: 'a@example.com' }), 400, 'invalid_request', /Password must be at least 6 characters/);
      await expectRefused(await b.post('/api/agscard/login', { password: 'Secret123' }), 400, 'invalid_request', /Please enter a valid email/);
      await expectRefused(await b.post('/api/agscard/login', { email: 'a@example.com', password: '12345' }), 400, 'invalid_request', /at least 6/);
      await expectRefused(await b.post('/api/agscard/login', { email: 'a@example.com', password: 'x'.repeat(256) }), 400, 'invalid_request', /at most 255/);
    });
  });

  describe('logout and stolen cookies', () => {
    it('revokes the session server-side and clears the cookie; the old cookie is refused afterwards', async () => {
      const { browser: b } = await registered();
      const stolen = b.jar.sid!;
      const response = await b.post('/api/logout');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: 'Logged out' });
      const cleared = response.cookies.find((c) => c.name === 'sid')!;
      expect(cleared.value).toBe('');
      expect(cleared.expires!.getTime()).toBeLessThan(Date.now());
      expect((await sessionRow(stolen)).revoked_at).not.toBeNull();

      const thief = browser();
      await expectRefused(await thief.get('/api/user', { sid: stolen }), 401, 'unauthorized');
      await expectRefused(await thief.get('/api/agscard/profile', { sid: stolen }), 401, 'unauthorized');
      // The thief is a cookie-less guest: reads store no session; a write gets a fresh one, never the revoked one.
      await guestWrite(thief, { cookie: `sid=${stolen}` });
      expect(thief.jar.sid).toBeDefined();
      expect(thief.jar.sid).not.toBe(stolen);
    });

    it('leaves a guest session alone on logout', async () => {
      const b = browser();
      await guestWrite(b);
      const sid = b.jar.sid!;
      expect((await b.post('/api/logout')).json()).toEqual({ message: 'Logged out' });
      expect((await sessionRow(sid)).revoked_at).toBeNull();
    });
  });

  describe('origin check', () => {
    it("refuses another site's Origin, and a write that names none, with 403 bad_origin, changing nothing", async () => {
      const before = await snapshot();
      const { browser: signedIn } = await registered();
      const afterRegistering = await snapshot();
      expect(afterRegistering.users).toBe(before.users + 1);

      const b = browser();
      const crossSite: Record<string, string>[] = [{ origin: 'https://evil.example' }, { origin: 'null' }, { origin: `http://${HOST}.evil.example` }, { origin: '', referer: 'https://evil.example/form' }];
      for (const headers of crossSite) {
        await expectRefused(await b.post('/api/agscard/register', account(), { headers }), 403, 'bad_origin', 'Cross-site request refused');
        await expectRefused(await b.post('/api/agscard/login', { email: 'x@example.com', password: 'Secret123' }, { headers }), 403, 'bad_origin');
        await expectRefused(await signedIn.post('/api/logout', undefined, { headers }), 403, 'bad_origin');
      }
      const noOrigin = await app.inject({ method: 'POST', url: '/api/agscard/register', headers: { host: HOST }, payload: account() });
      await expectRefused(noOrigin, 403, 'bad_origin');
      expect(await snapshot()).toEqual(afterRegistering);
      expect((await signedIn.get('/api/user')).statusCode).toBe(200); // logout did not happen
    });

    it('accepts the same host by Referer, and the trusted origins', async () => {
      const viaReferer = browser();
      const response = await viaReferer.post('/api/agscard/register', account(), { headers: { origin: '', referer: `${ORIGIN}/auth?returnTo=/` } });
      expect(response.statusCode).toBe(201);
      const defaultPort = await browser().post('/api/agscard/register', account(), { headers: { host: `${HOST.toUpperCase()}:80` } });
      expect(defaultPort.statusCode).toBe(201);
      const trusted = await browser().post('/api/agscard/register', account(), { headers: { origin: 'https://partner.example' } });
      expect(trusted.statusCode).toBe(201);
      // Reads are not state-changing and need no Origin.
      expect((await browser().get('/api/user', { headers: { origin: 'https://evil.example' } })).statusCode).toBe(401);
    });
  });

  describe('rate limits', () => {
    const limited = (response: LightMyRequestResponse) =>
      expectRefused(response, 429, 'rate_limited', 'Too many attempts. Please wait a few minutes and try again.');

    it(`stops sign-in to one account after ${PER_ACCOUNT} attempts, from any address, even with the right password`, async () => {
      const { input } = await registered();
      for (let i = 0; i < PER_ACCOUNT; i++) {
        await expectRefused(await browser().post('/api/agscard/login', { email: input.email, password: 'Wrong123' }), 401, 'invalid_credentials');
      }
      const blocked = await browser().post('/api/agscard/login', { email: input.email.toUpperCase(), password: input.password });
      await limited(blocked);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      // Another account is not affected.
      const other = await registered();
      expect((await browser().post('/api/agscard/login', { email: other.input.email, password: other.input.password })).statusCode).toBe(200);
    });

    it('forgets failed attempts once the right password is given', async () => {
      const { input } = await registered();
      const b = browser();
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < PER_ACCOUNT - 1; i++) {
          await expectRefused(await b.post('/api/agscard/login', { email: input.email, password: 'Wrong123' }), 401, 'invalid_credentials');
        }
        expect((await b.post('/api/agscard/login', { email: input.email, password: input.password })).statusCode).toBe(200);
      }
    });

    it(`stops one address after ${PER_ADDRESS} attempts per window, sign-in and registration alike`, async () => {
      const b = browser();
      for (let i = 0; i < PER_ADDRESS; i++) {
        await expectRefused(await b.post('/api/agscard/login', { email: `spray${i}@example.com`, password: 'Wrong123' }), 401, 'invalid_credentials');
      }
      await limited(await b.post('/api/agscard/login', { email: 'spray-last@example.com', password: 'Wrong123' }));
      await limited(await b.send('POST', '/api/agscard/login', { raw: '{' })); // counted before the body is even read

      const before = await snapshot();
      const r = browser();
      for (let i = 0; i < PER_ADDRESS; i++) expect((await r.post('/api/agscard/register', account({ email: `r${i}` }))).statusCode).toBe(400);
      await limited(await r.post('/api/agscard/register', account()));
      expect(await snapshot()).toEqual(before);

      // A new window starts after a minute.
      clock.time += 61_000;
      expect((await r.post('/api/agscard/register', account())).statusCode).toBe(201);
    });

    it(`limits registrations per email to ${PER_ACCOUNT} per window`, async () => {
      const email = 'again.and.again@example.com';
      expect((await browser().post('/api/agscard/register', account({ email }))).statusCode).toBe(201);
      for (let i = 1; i < PER_ACCOUNT; i++) await expectRefused(await browser().post('/api/agscard/register', account({ email })), 409, 'email_taken');
      await limited(await browser().post('/api/agscard/register', account({ email })));
    });
  });

  describe('profile', () => {
    it('answers the provider profile of the signed-in user, stable across sign-ins', async () => {
      const { browser: b, input, user } = await registered({ first_name: 'Katherine', last_name: 'Johnson' });
      const response = await b.get('/api/agscard/profile');
      expect(response.statusCode).toBe(200);
      const profile = response.json();
      expect(profile).toEqual({
        id: user.id,
        full_name: 'Katherine Johnson',
        first_name: 'Katherine',
        last_name: 'Johnson',
        username: user.username,
        email: input.email,
        phone: '5551234567',
        profile_image: null,
        customer_number: expect.stringMatching(/^CG-\d{6,}$/),
        roles: [{ name: 'Member' }],
        role: 'Member',
        stripe_id: null,
        wallet: { balance: 0 },
        is_marketing_notifications_enabled: true,
      });

      const again = browser();
      await again.post('/api/agscard/login', { email: input.email, password: input.password });
      expect((await again.get('/api/agscard/profile')).json().customer_number).toBe(profile.customer_number);

      const other = await registered({ is_marketing_notifications_enabled: false });
      const otherProfile = (await other.browser.get('/api/agscard/profile')).json();
      expect(otherProfile.customer_number).not.toBe(profile.customer_number);
      expect(otherProfile.is_marketing_notifications_enabled).toBe(false);
    });

    it('answers 401 when signed out', async () => {
      await expectRefused(await browser().get('/api/agscard/profile'), 401, 'unauthorized', 'Not signed in');
    });
  });

  describe('guest data', () => {
    it('moves what a guest session owns to the account at registration and at sign-in', async () => {
      const claimed: { guestId: string; userId: string }[] = [];
      const claimer: GuestDataClaimer = { name: 'test', claim: async (input) => void claimed.push(input) };
      guestDataClaimers.push(claimer);
      try {
        const b = browser();
        await guestWrite(b);
        const guestId = (await sessionRow(b.jar.sid!)).guest_id;
        const { user } = (await b.post('/api/agscard/register', account())).json();
        expect(claimed).toEqual([{ guestId, userId: user.id }]);
        const { events } = await runtime.eventStore.readStream(guestSessionStream(guestId).streamId);
        expect(events.map((e) => [e.type, e.data])).toEqual([['GuestSessionClaimed', { guestId, userId: user.id, claimedAt: new Date(clock.time).toISOString() }]]);
        expect(events[0]!.metadata.actor).toEqual({ kind: 'guest', id: guestId });

        // Logged out, the browser is a new guest; signing in claims that guest's things too.
        await b.post('/api/logout');
        await guestWrite(b);
        const secondGuest = (await sessionRow(b.jar.sid!)).guest_id;
        expect(secondGuest).not.toBe(guestId);
        const input = account();
        await browser().post('/api/agscard/register', input);
        await b.post('/api/agscard/login', { email: input.email, password: input.password });
        expect(claimed.at(-1)).toEqual({ guestId: secondGuest, userId: expect.not.stringMatching(user.id) });
      } finally {
        guestDataClaimers.splice(guestDataClaimers.indexOf(claimer), 1);
      }
    });

    it('still signs in when a claimer fails', async () => {
      const claimer: GuestDataClaimer = { name: 'broken', claim: async () => Promise.reject(new Error('boom')) };
      guestDataClaimers.push(claimer);
      try {
        expect((await browser().post('/api/agscard/register', account())).statusCode).toBe(201);
      } finally {
        guestDataClaimers.splice(guestDataClaimers.indexOf(claimer), 1);
      }
    });
  });
});
