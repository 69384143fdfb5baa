import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireGuestData } from '../../src/commands/accounts/expire-guest-data.ts';
import { createSessionRepository, GUEST_SESSION_TTL_MS } from '../../src/infra/auth/session-repository.ts';
import { HSTS_VALUE } from '../../src/http/plugins/security-headers.ts';
import { cardsProjection } from '../../src/projections/cards/cards-projection.ts';
import { rebuildProjection } from '../../src/projections/runner/index.ts';
import { routeDatabaseKind } from '../support/database.ts';
import { expectRefused, HOST, samplePhoto, startCardsApp, type CardsHarness } from './cards-harness.ts';

// Issue 15: the headers every answer carries, sessions only when a guest first writes, and the clean-up of expired
// sessions with the guest data under them (DESIGN.md §6).

// One server for the file (PostgreSQL when reachable), behind one trusted proxy so HTTPS can be said.
const kind = await routeDatabaseKind();
let h: CardsHarness;
beforeAll(async () => {
  h = await startCardsApp(kind, { TRUST_PROXY: '1' });
});
afterAll(async () => h?.close());

describe(`sessions only when needed on ${kind}`, () => {
  const sessionRows = async () => (await h.database.db.selectFrom('sessions').select(['id', 'expires_at', 'revoked_at']).orderBy('id').execute()).map((r) => JSON.stringify(r));
  const eventCount = async () => Number((await h.database.db.selectFrom('es_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  it('1,000 cookie-less GETs of every kind leave the sessions table as it was and set no cookie', async () => {
    await h.registered(); // some rows to compare with
    const before = await sessionRows();
    const urls = ['/api/leaderboard', '/api/user', '/api/my-cards', '/api/card/AAAAAAAAAAAAAAAAAAAAAA', '/api/portfolio', '/api/achievements', '/api/orders', '/healthz'];
    const cookies: string[] = [];
    for (let n = 0; n < 1000; n++) {
      const response = await h.app.inject({ method: 'GET', url: urls[n % urls.length]!, headers: { host: HOST } });
      expect(response.statusCode).toBeLessThan(500);
      if (response.headers['set-cookie']) cookies.push(String(response.headers['set-cookie']));
    }
    expect(cookies).toEqual([]);
    expect(await sessionRows()).toEqual(before);
  });

  it("a guest's first successful write stores the session and sets the cookie; a refused write stores none", async () => {
    const b = h.browser();
    const before = await sessionRows();
    await expectRefused(await b.grade([['cardType', 'pokemon']]), 400, 'missing_front_image');
    expect(b.jar.sid).toBeUndefined();
    expect(await sessionRows()).toEqual(before);

    const graded = await b.grade([['frontImage', { bytes: await samplePhoto(2) }]]);
    expect(graded.statusCode).toBe(200);
    expect(b.jar.sid).toMatch(/^[\w-]{43}$/);
    expect((await sessionRows()).length).toBe(before.length + 1);
    // The cookie owns what was written: the guest's collection has the card.
    expect((await b.get('/api/my-cards')).json().map((c: { id: string }) => c.id)).toEqual([graded.json().id]);
  });

  it('a 10,000-character card id is not found (404), like any other unknown id', async () => {
    const b = h.browser();
    const long = 'A'.repeat(10_000);
    await expectRefused(await b.get(`/api/card/${long}`), 404, 'card_not_found', 'Card not found');
    await expectRefused(await b.delete(`/api/card/${long}`), 404, 'card_not_found', 'Card not found');
  });

  it("removes expired sessions and an expired guest's cards from the read models by events; a rebuild agrees; a claimed card stays", async () => {
    const guest = h.browser();
    const kept = h.browser();
    const card = (await guest.grade([['frontImage', { bytes: await samplePhoto(3) }]])).json() as { id: string };
    const claimed = (await kept.grade([['frontImage', { bytes: await samplePhoto(4) }]])).json() as { id: string };
    await h.signUp(kept); // the card moves to the account
    const sessions = createSessionRepository(h.database.db, h.runtime.clock, h.runtime.ids);
    const eventsBefore = await eventCount();
    const lastPosition = Number((await h.database.db.selectFrom('es_events').select((eb) => eb.fn.max('global_position').as('p')).executeTakeFirstOrThrow()).p);

    // Not yet: within the 7 days nothing changes.
    const soon = { now: () => new Date(Date.now() + GUEST_SESSION_TTL_MS - 60_000) };
    expect((await expireGuestData({ db: h.database.db, store: h.runtime.eventStore, sessions, clock: soon, ids: h.runtime.ids })).sessionsDeleted).toBe(0);
    expect((await guest.get(`/api/card/${card.id}`)).statusCode).toBe(200);

    const later = { now: () => new Date(Date.now() + GUEST_SESSION_TTL_MS + 60_000) };
    const result = await expireGuestData({ db: h.database.db, store: h.runtime.eventStore, sessions, clock: later, ids: h.runtime.ids });
    expect(result.failures).toEqual([]);
    expect(result.sessionsDeleted).toBeGreaterThanOrEqual(2);
    // Only sessions that had not expired by then are left.
    const left = await h.database.db.selectFrom('sessions').select('expires_at').execute();
    expect(left.every((row) => row.expires_at.getTime() > later.now().getTime())).toBe(true);

    await expectRefused(await h.browser().get(`/api/card/${card.id}`), 404, 'card_not_found');
    expect((await kept.get(`/api/card/${claimed.id}`)).statusCode).toBe(200);
    // Events stay; the expiry is one more (a CardDeleted per guest card).
    const appended = await h.database.db.selectFrom('es_events').select(['event_type', 'stream_id']).where('global_position', '>', lastPosition).execute();
    expect(appended.map((e) => e.event_type)).toContain('CardDeleted');
    expect(await h.database.db.selectFrom('es_events').select('event_id').where('stream_id', '=', `card-${card.id}`).where('event_type', '=', 'CardGraded').execute()).toHaveLength(1);
    // Idempotent: a second run finds nothing to do.
    const again = await expireGuestData({ db: h.database.db, store: h.runtime.eventStore, sessions, clock: later, ids: h.runtime.ids });
    expect(again.sessionsDeleted).toBe(0);
    expect(await eventCount()).toBe(eventsBefore + appended.length);

    const rows = async () =>
      Promise.all(
        ['card_grades', 'price_history', 'card_collections'].map(
          async (table) => (await sql<{ t: string }>`select row_to_json(x)::text as t from ${sql.table(table)} x order by 1`.execute(h.database.db)).rows.map((r) => r.t),
        ),
      );
    const live = await rows();
    expect(live[0]!.some((row) => row.includes(card.id))).toBe(false);
    await rebuildProjection(h.database, h.runtime.eventStore, cardsProjection, 'inline');
    expect(await rows()).toEqual(live);
  });
});

describe('security headers', () => {
  const get = (url: string, headers: Record<string, string> = {}) => h.app.inject({ method: 'GET', url, headers: { host: HOST, ...headers } });

  it('every answer carries the CSP, nosniff, frame-ancestors, the referrer policy and COOP; HSTS only over HTTPS', async () => {
    const graded = await h.browser().grade([['frontImage', { bytes: await samplePhoto(1) }]]);
    const imageUrl = graded.json().imageUrl as string;
    const answers = {
      api: await get('/api/leaderboard'),
      refusal: await get('/api/card/nope'),
      unknown: await get('/nowhere'),
      probe: await get('/healthz'),
      image: await get(imageUrl),
      docs: await get('/api/openapi.json'),
      post: await h.browser().post('/api/agscard/login', { email: 'x', password: 'y' }),
    };
    for (const [name, response] of Object.entries(answers)) {
      const headers = response.headers;
      expect({ name, csp: headers['content-security-policy'] }).toEqual({ name, csp: expect.stringContaining("frame-ancestors 'none'") });
      expect(headers['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
      expect(headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe/);
      expect(headers['content-security-policy']).toContain('img-src \'self\' blob: data:');
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['x-frame-options']).toBe('DENY');
      expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(headers['strict-transport-security']).toBeUndefined();
      expect(headers['x-powered-by']).toBeUndefined();
    }
    expect(answers.image.headers['content-type']).toBe('image/jpeg');
    // Behind the trusted proxy, a request that came over HTTPS is told to keep to it.
    expect((await get('/api/leaderboard', { 'x-forwarded-proto': 'https' })).headers['strict-transport-security']).toBe(HSTS_VALUE);
    expect((await get('/healthz', { 'x-forwarded-proto': 'https' })).headers['strict-transport-security']).toBe(HSTS_VALUE);
  });
});

describe('under load', () => {
  it('20 registrations of one name at once all get in, each with a username of its own (a 500 before issue 15)', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        h.browser().post('/api/agscard/register', { first_name: 'Rush', last_name: 'Hour', email: `rush${n}-${Date.now()}@example.com`, phone: '5551234567', password: 'Secret123', password_confirmation: 'Secret123' }),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    expect(new Set(responses.map((r) => r.json().user.username)).size).toBe(20);
  });
});
