import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prng } from '../../src/vision/synthetic/prng.ts';
import { routeDatabaseKind } from '../support/database.ts';
import { startCardsApp, type Browser, type CardsHarness } from '../http/cards-harness.ts';

// Hostile input, table-driven (issue 20): text the database cannot store or a person cannot see, in every text
// field of registration, sign-in and grading. Each case has the exact status and code it must get; after each the
// server still answers /healthz and nothing was written. Add a route's cases as rows of a table here.

const NUL = '\u0000';
const LONE_SURROGATE = '\ud800';
const RIGHT_TO_LEFT_OVERRIDE = '\u202e';
const ZERO_WIDTH_SPACE = '\u200b';

interface Case {
  name: string;
  send: (b: Browser) => Promise<{ statusCode: number; json(): { code?: string; error?: string } }>;
  status: number;
  code: string;
  /** The message names the field. */
  field: string;
}

let nextEmail = 1;
function registration(overrides: Record<string, string> = {}) {
  return {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: `odd${nextEmail++}-${Date.now()}@example.com`,
    phone: '5551234567',
    password: 'Secret123',
    password_confirmation: 'Secret123',
    ...overrides,
  };
}

const registrationFields = ['first_name', 'last_name', 'email', 'phone', 'password'] as const;

const cases: Case[] = [
  ...registrationFields.map(
    (field): Case => ({
      name: `NUL in registration ${field}`,
      send: (b) => b.post('/api/agscard/register', registration(field === 'password' ? { password: `Secret${NUL}123`, password_confirmation: `Secret${NUL}123` } : { [field]: field === 'email' ? `a${NUL}b@example.com` : `Ada${NUL}0000000000` })),
      status: 400,
      code: 'invalid_request',
      field,
    }),
  ),
  ...(['first_name', 'last_name'] as const).map(
    (field): Case => ({
      name: `lone surrogate in registration ${field}`,
      send: (b) => b.post('/api/agscard/register', registration({ [field]: `Ada${LONE_SURROGATE}` })),
      status: 400,
      code: 'invalid_request',
      field,
    }),
  ),
  ...(['email', 'password'] as const).map(
    (field): Case => ({
      name: `NUL in sign-in ${field}`,
      send: (b) => b.post('/api/agscard/login', { email: 'someone@example.com', password: 'Secret123', [field]: field === 'email' ? `x${NUL}@example.com` : `Secret${NUL}123` }),
      status: 400,
      code: 'invalid_request',
      field,
    }),
  ),
  {
    name: 'NUL in cardType',
    send: (b) => b.grade([['frontImageUrl', 'http://127.0.0.1:9/card.jpg'], ['cardType', `pokemon${NUL}`]]),
    status: 400,
    code: 'invalid_request',
    field: 'cardType',
  },
  {
    name: 'NUL in an image URL (refused before it is fetched)',
    send: (b) => b.grade([['frontImageUrl', `http://127.0.0.1:9/card${NUL}.jpg`]]),
    status: 400,
    code: 'invalid_request',
    field: 'frontImageUrl',
  },
  {
    name: 'right-to-left override in an image URL',
    send: (b) => b.grade([['frontImageUrl', `http://127.0.0.1:9/${RIGHT_TO_LEFT_OVERRIDE}gpj.png`]]),
    status: 400,
    code: 'invalid_request',
    field: 'frontImageUrl',
  },
  {
    name: 'a line break in cardType',
    send: (b) => b.grade([['frontImageUrl', 'http://127.0.0.1:9/card.jpg'], ['cardType', 'poke\nmon']]),
    status: 400,
    code: 'invalid_request',
    field: 'cardType',
  },
];

describe.each([await routeDatabaseKind()])('odd text at the edge on %s', (kind) => {
  let harness: CardsHarness;
  const eventCount = async () => Number((await harness.database.db.selectFrom('es_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    harness = await startCardsApp(kind, { AUTH_RATE_LIMIT_PER_ADDRESS: '100000', AUTH_RATE_LIMIT_PER_ACCOUNT: '100000' });
  });
  afterAll(async () => harness?.close());

  it.each(cases)('$name → $status $code, naming the field, nothing written, server up', async ({ send, status, code, field }) => {
    const before = await eventCount();
    const response = await send(harness.browser());
    expect(response.statusCode).toBe(status);
    const body = response.json();
    expect(body.code).toBe(code);
    expect(body.error).toContain(field);
    expect(await eventCount()).toBe(before);
    expect((await harness.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('names keep real scripts; bidirectional overrides and zero-width spaces are taken out of them', async () => {
    const b = harness.browser();
    const response = await b.post('/api/agscard/register', registration({ first_name: `Zoë ${RIGHT_TO_LEFT_OVERRIDE}李${ZERO_WIDTH_SPACE}小龍`, last_name: 'محمد 👩‍👩‍👧' }));
    expect(response.statusCode).toBe(201);
    const me = (await b.get('/api/user')).json();
    expect(me.first_name).toBe('Zoë 李小龍');
    expect(me.last_name).toBe('محمد 👩‍👩‍👧');
  });

  it('150 random Unicode strings (fixed seed) in each text field of registration, sign-in and grading: never a 5xx', async () => {
    const rng = new Prng(2026);
    const statuses = new Map<number, number>();
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const b = harness.browser();
    for (let n = 0; n < 150; n++) {
      const text = randomUnicode(rng);
      // The confirmation differs, so no account is made (each would cost a password hash); every field still goes
      // through parsing and the text rule.
      for (const field of registrationFields) count((await b.post('/api/agscard/register', { ...registration({ [field]: text }), password_confirmation: 'Different1' })).statusCode);
      count((await b.post('/api/agscard/login', { email: text, password: 'Secret123' })).statusCode);
      count((await b.post('/api/agscard/login', { email: 'someone@example.com', password: text })).statusCode);
      count((await b.grade([['frontImageUrl', text]])).statusCode);
      count((await b.grade([['cardType', text]])).statusCode);
    }
    // And some that do register, so random names reach the database.
    for (let n = 0; n < 20; n++) count((await harness.browser().post('/api/agscard/register', registration({ first_name: `Ab${randomUnicode(rng)}`, last_name: `Cd${randomUnicode(rng)}` }))).statusCode);
    const serverErrors = [...statuses].filter(([status]) => status >= 500);
    expect(serverErrors).toEqual([]);
    expect((await harness.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  }, 120_000);
});

/** 1–24 code units from across Unicode: controls, surrogates (lone and paired), bidi and zero-width, CJK, emoji. */
function randomUnicode(rng: Prng): string {
  const pools = [
    [0x0, 0x1f],
    [0x20, 0x7e],
    [0x7f, 0x9f],
    [0xa0, 0x24f],
    [0x600, 0x6ff],
    [0x200b, 0x200f],
    [0x202a, 0x202e],
    [0x2066, 0x2069],
    [0x4e00, 0x9fff],
    [0xd800, 0xdfff],
    [0xfeff, 0xfeff],
    [0xfff0, 0xffff],
  ] as const;
  const length = 1 + Math.floor(rng.range(0, 24));
  let text = '';
  for (let i = 0; i < length; i++) {
    if (rng.range(0, 1) < 0.08) {
      text += String.fromCodePoint(0x1f300 + Math.floor(rng.range(0, 0x2ff)));
      continue;
    }
    const [from, to] = pools[Math.floor(rng.range(0, pools.length))]!;
    text += String.fromCharCode(from + Math.floor(rng.range(0, to - from + 1)));
  }
  return text;
}
