import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST, ORIGIN, startCardsApp, type CardsHarness } from '../http/cards-harness.ts';

// No locking people out (issue 20, OWASP): an attacker who rotates addresses and guesses an account's password is
// throttled, but the owner, from a browser that has signed in before (its device cookie), gets in at once; an
// unknown client with the right password is throttled too, and told when to retry.

const PER_ACCOUNT = 5;

describe('sign-in protection without lockout', () => {
  let harness: CardsHarness;
  let nextAddress = 1;
  beforeAll(async () => {
    harness = await startCardsApp('pglite', { AUTH_RATE_LIMIT_PER_ACCOUNT: String(PER_ACCOUNT) });
  });
  afterAll(async () => harness?.close());

  /** One request from its own address, with the cookies given; returns the response and the cookies it set. */
  async function post(url: string, body: object, cookies: Record<string, string> = {}) {
    const cookie = Object.entries(cookies).map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await harness.app.inject({
      method: 'POST',
      url,
      headers: { host: HOST, origin: ORIGIN, ...(cookie ? { cookie } : {}) },
      remoteAddress: `172.20.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`,
      payload: body,
    });
    const set = Object.fromEntries(response.cookies.map((c) => [c.name, c.value]));
    return { response, set };
  }

  it('50 wrong guesses from rotating addresses: the owner\'s browser gets in at once, an unknown client is told when to retry', async () => {
    const email = `owner-${Date.now()}@example.com`;
    const password = 'Secret123';
    const registration = await post('/api/agscard/register', { first_name: 'Owen', last_name: 'Owner', email, phone: '5551234567', password, password_confirmation: password });
    expect(registration.response.statusCode).toBe(201);
    const deviceCookie = registration.set.did;
    expect(deviceCookie).toMatch(/^[\w-]{16}\.[\w-]{22}$/);
    expect(deviceCookie).not.toContain(email);

    const statuses: number[] = [];
    for (let guess = 0; guess < 50; guess++) statuses.push((await post('/api/agscard/login', { email, password: `Wrong${guess}abc` })).response.statusCode);
    expect(statuses.slice(0, PER_ACCOUNT).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(PER_ACCOUNT).every((s) => s === 429)).toBe(true);

    // The owner, from the browser that registered (its session long gone, its device cookie kept).
    const owner = await post('/api/agscard/login', { email, password }, { did: deviceCookie! });
    expect(owner.response.statusCode).toBe(200);
    expect(owner.response.json().user.first_name).toBe('Owen');

    // Someone else with the right password, from a browser the account has never seen.
    const stranger = await post('/api/agscard/login', { email, password });
    expect(stranger.response.statusCode).toBe(429);
    expect(stranger.response.json().error).toBe('Too many attempts. Please wait a few minutes and try again.');
    expect(Number(stranger.response.headers['retry-after'])).toBeGreaterThan(0);

    // The audit trail: every refusal on the account's stream, none with a password in it.
    const userId = registration.response.json().user.id as string;
    const refusals = await harness.database.db.selectFrom('es_events').select(['event_type', 'data']).where('stream_id', '=', `user-${userId}`).where('event_type', '=', 'SignInRefused').execute();
    const reasons = refusals.map((r) => (r.data as { reason: string }).reason);
    expect(reasons.filter((r) => r === 'wrong_password')).toHaveLength(PER_ACCOUNT);
    expect(reasons.filter((r) => r === 'throttled')).toHaveLength(50 - PER_ACCOUNT + 1);
    const trail = JSON.stringify(refusals);
    expect(trail).not.toContain('Wrong');
    expect(trail).not.toContain(password);

    // A device cookie for another account does not open this one.
    const other = await post('/api/agscard/register', { first_name: 'Eve', last_name: 'Other', email: `eve-${Date.now()}@example.com`, phone: '5551234567', password, password_confirmation: password });
    const borrowed = await post('/api/agscard/login', { email, password }, { did: other.set.did! });
    expect(borrowed.response.statusCode).toBe(429);
  }, 60_000);
});
