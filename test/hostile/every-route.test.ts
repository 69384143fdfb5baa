import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImageFetcher, systemResolver, type ResolvedAddress } from '../../src/infra/image-fetch/image-fetcher.ts';
import { multipartBody, samplePhoto, startCardsApp, type Browser, type CardsHarness, type FormParts, HOST } from '../http/cards-harness.ts';

// Issue 15: hostile input at every route, in one table against one server. Each row has the exact status and code
// it must get; after each the server still answers /healthz and nothing was written (no event, no session). The
// categories: malformed and deep JSON, content types, oversized bodies and fields, NUL and odd Unicode, prototype
// keys, ids of every shape, image bombs and truncated files, hostile image URLs and redirects, CSRF.
// Older tables of their own: odd-text.test.ts (random Unicode), formats.test.ts, grading-limits.test.ts,
// sign-in-lockout.test.ts, forwarded-address.test.ts.

type Who = 'guest' | 'user' | 'other';
interface Context {
  /** A signed-in user's things, for the ids of "another user's" rows. */
  cardId: string;
  portfolioId: number;
  addressId: string;
  importId: string;
  photos: string;
  bomb: Buffer;
  jpeg: Buffer;
}
interface Request {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  payload?: string | Buffer | object;
  /** multipart/form-data instead of `payload`. */
  form?: FormParts;
}
interface Case {
  category: string;
  name: string;
  as: Who;
  request: (c: Context) => Request;
  status: number;
  code: string;
}

/** A PNG of 1-bit zeros: a few kB on the wire, `width` x `height` pixels once decoded. */
function pngOfZeros(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1;
  const rows = Buffer.alloc(height * (1 + Math.ceil(width / 8)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

const NUL = '\u0000';
/** `depth` nested objects, as the value of a field the routes read (an unknown key would only be dropped). */
const deepJson = (depth: number) => `{"cardName":${'{"a":'.repeat(depth)}1${'}'.repeat(depth + 1)}`;
const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const json = (payload: string | Buffer, contentType = 'application/json') => ({ payload, headers: { 'content-type': contentType } });
const registration = (overrides: Record<string, unknown> = {}) => ({ first_name: 'Eve', last_name: 'Hacker', email: 'eve@example.com', phone: '5551234567', password: 'Secret123', password_confirmation: 'Secret123', ...overrides });
const address = (overrides: Record<string, unknown> = {}) => ({ fullName: 'Eve Hacker', addressLine1: '1 Main St', city: 'Springfield', state: 'IL', zipCode: '62701', country: 'United States', ...overrides });
/** A one-row import whose photo URL leads to a private address: the row fails, nothing is fetched. */
const CSV = 'FrontImage\nhttp://10.0.0.1/card.jpg\n';
const portfolioCard = (overrides: Record<string, unknown> = {}) => ({ cardName: 'Pikachu', ...overrides });

// ── The state-changing routes, each with a body it would take: for CSRF, content types and malformed JSON ─────
const writes: Array<{ route: string; as: Who; request: (c: Context) => Request }> = [
  { route: 'register', as: 'guest', request: () => ({ method: 'POST', url: '/api/agscard/register', payload: registration() }) },
  { route: 'sign-in', as: 'guest', request: () => ({ method: 'POST', url: '/api/agscard/login', payload: { email: 'eve@example.com', password: 'Secret123' } }) },
  { route: 'sign-out', as: 'user', request: () => ({ method: 'POST', url: '/api/logout' }) },
  { route: 'forgot password', as: 'guest', request: () => ({ method: 'POST', url: '/api/password-reset', payload: { email: 'eve@example.com' } }) },
  { route: 'reset link check', as: 'guest', request: () => ({ method: 'POST', url: '/api/password-reset/check', payload: { token: 'a-token' } }) },
  { route: 'reset password', as: 'guest', request: () => ({ method: 'POST', url: '/api/password-reset/confirm', payload: { token: 'a-token', password: 'Secret123', password_confirmation: 'Secret123' } }) },
  { route: 'grade', as: 'guest', request: (c) => ({ method: 'POST', url: '/api/grade-card', form: [['frontImage', { bytes: c.jpeg }]] }) },
  { route: 'delete card', as: 'user', request: (c) => ({ method: 'DELETE', url: `/api/card/${c.cardId}` }) },
  { route: 'restore samples', as: 'guest', request: () => ({ method: 'POST', url: '/api/restore-sample-cards' }) },
  { route: 'sync instant grades', as: 'user', request: () => ({ method: 'POST', url: '/api/sync-instant-grades' }) },
  { route: 'portfolio add', as: 'user', request: () => ({ method: 'POST', url: '/api/portfolio', payload: portfolioCard() }) },
  { route: 'portfolio patch', as: 'user', request: (c) => ({ method: 'PATCH', url: `/api/portfolio/${c.portfolioId}`, payload: { cardName: 'Raichu' } }) },
  { route: 'portfolio put', as: 'user', request: (c) => ({ method: 'PUT', url: `/api/portfolio/${c.portfolioId}`, payload: portfolioCard() }) },
  { route: 'portfolio delete', as: 'user', request: (c) => ({ method: 'DELETE', url: `/api/portfolio/${c.portfolioId}` }) },
  { route: 'portfolio analysis', as: 'user', request: (c) => ({ method: 'POST', url: '/api/analyze-card-images', payload: { frontImage: c.jpeg.toString('base64') } }) },
  { route: 'feedback', as: 'guest', request: () => ({ method: 'POST', url: '/api/feedback', form: [['name', 'Eve'], ['email', 'eve@example.com'], ['category', 'bug'], ['feedbackText', 'Hello there, a long enough text.']] }) },
  { route: 'marketing', as: 'user', request: () => ({ method: 'PUT', url: '/api/account/marketing', payload: { is_marketing_notifications_enabled: true } }) },
  { route: 'password', as: 'user', request: () => ({ method: 'POST', url: '/api/account/password', payload: { current_password: 'Secret123', new_password: 'Secret456', new_password_confirmation: 'Secret456' } }) },
  { route: 'sign out everywhere', as: 'user', request: () => ({ method: 'POST', url: '/api/account/sign-out-everywhere' }) },
  { route: 'leaderboard opt-out', as: 'user', request: () => ({ method: 'PUT', url: '/api/account/leaderboard', payload: { leaderboard_opt_out: true } }) },
  { route: 'delete account', as: 'user', request: () => ({ method: 'POST', url: '/api/account/delete', payload: { password: 'Secret123' } }) },
  { route: 'address add', as: 'user', request: () => ({ method: 'POST', url: '/api/shipping-addresses', payload: address() }) },
  { route: 'address edit', as: 'user', request: (c) => ({ method: 'PUT', url: `/api/shipping-addresses/${c.addressId}`, payload: address() }) },
  { route: 'address default', as: 'user', request: (c) => ({ method: 'PUT', url: `/api/shipping-addresses/${c.addressId}/set-default` }) },
  { route: 'address delete', as: 'user', request: (c) => ({ method: 'DELETE', url: `/api/shipping-addresses/${c.addressId}` }) },
  { route: 'address sync', as: 'user', request: () => ({ method: 'POST', url: '/api/sync-ags-addresses' }) },
  { route: 'quote', as: 'user', request: () => ({ method: 'POST', url: '/api/orders/quote', payload: {} }) },
  { route: 'payment', as: 'user', request: () => ({ method: 'POST', url: '/api/orders/payment', payload: {} }) },
  { route: 'order', as: 'user', request: () => ({ method: 'POST', url: '/api/orders', payload: {} }) },
  { route: 'achievement shown', as: 'user', request: () => ({ method: 'POST', url: '/api/mark-achievement-shown/first-card' }) },
  { route: 'import upload', as: 'user', request: () => ({ method: 'POST', url: '/api/ultra-fast-upload', form: [['file', { bytes: Buffer.from(CSV), type: 'text/csv', filename: 'cards.csv' }]] }) },
  { route: 'import cancel', as: 'user', request: (c) => ({ method: 'POST', url: `/api/imports/${c.importId}/cancel` }) },
  { route: 'import retry', as: 'user', request: (c) => ({ method: 'POST', url: `/api/imports/${c.importId}/retry-failed` }) },
  { route: 'import delete', as: 'user', request: (c) => ({ method: 'DELETE', url: `/api/imports/${c.importId}` }) },
];

const csrf: Case[] = writes.flatMap(({ route, as, request }): Case[] => [
  { category: 'CSRF', name: `${route}: a foreign Origin`, as, request: (c) => ({ ...request(c), headers: { origin: 'https://evil.example' } }), status: 403, code: 'bad_origin' },
  { category: 'CSRF', name: `${route}: Origin null (sandboxed frame, data: page)`, as, request: (c) => ({ ...request(c), headers: { origin: 'null' } }), status: 403, code: 'bad_origin' },
  { category: 'CSRF', name: `${route}: no Origin and no Referer`, as, request: (c) => ({ ...request(c), headers: { origin: '' } }), status: 403, code: 'bad_origin' },
]);

// A cross-site form or a "simple" fetch: text/plain or urlencoded bodies, foreign Origin, a Referer look-alike.
const simplePosts: Case[] = [
  { category: 'CSRF', name: 'register: a text/plain body from a foreign site', as: 'guest', request: () => ({ method: 'POST', url: '/api/agscard/register', ...json(JSON.stringify(registration()), 'text/plain'), headers: { 'content-type': 'text/plain', origin: 'https://evil.example' } }), status: 403, code: 'bad_origin' },
  { category: 'CSRF', name: 'portfolio add: a urlencoded form post from a foreign site', as: 'user', request: () => ({ method: 'POST', url: '/api/portfolio', payload: 'cardName=Pikachu', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' } }), status: 403, code: 'bad_origin' },
  { category: 'CSRF', name: 'sign out everywhere: a foreign Referer and no Origin', as: 'user', request: () => ({ method: 'POST', url: '/api/account/sign-out-everywhere', headers: { origin: '', referer: 'https://evil.example/page' } }), status: 403, code: 'bad_origin' },
  { category: 'CSRF', name: 'marketing: an Origin that only starts like ours', as: 'user', request: () => ({ method: 'PUT', url: '/api/account/marketing', payload: { is_marketing_notifications_enabled: true }, headers: { origin: `http://${HOST}.evil.example` } }), status: 403, code: 'bad_origin' },
  { category: 'CSRF', name: 'delete card: our host on another port', as: 'user', request: (c) => ({ method: 'DELETE', url: `/api/card/${c.cardId}`, headers: { origin: `http://${HOST}:8443` } }), status: 403, code: 'bad_origin' },
  { category: 'CSRF', name: 'address add: an Origin that is not a URL', as: 'user', request: () => ({ method: 'POST', url: '/api/shipping-addresses', payload: address(), headers: { origin: 'not a url' } }), status: 403, code: 'bad_origin' },
];

// ── Bodies ─────────────────────────────────────────────────────────────────────────────────────────────
const jsonRoutes: Array<{ route: string; as: Who; method: Request['method']; url: (c: Context) => string }> = [
  { route: 'register', as: 'guest', method: 'POST', url: () => '/api/agscard/register' },
  { route: 'sign-in', as: 'guest', method: 'POST', url: () => '/api/agscard/login' },
  { route: 'forgot password', as: 'guest', method: 'POST', url: () => '/api/password-reset' },
  { route: 'reset password', as: 'guest', method: 'POST', url: () => '/api/password-reset/confirm' },
  { route: 'portfolio add', as: 'user', method: 'POST', url: () => '/api/portfolio' },
  { route: 'portfolio patch', as: 'user', method: 'PATCH', url: (c) => `/api/portfolio/${c.portfolioId}` },
  { route: 'address add', as: 'user', method: 'POST', url: () => '/api/shipping-addresses' },
  { route: 'quote', as: 'user', method: 'POST', url: () => '/api/orders/quote' },
  { route: 'password', as: 'user', method: 'POST', url: () => '/api/account/password' },
  { route: 'marketing', as: 'user', method: 'PUT', url: () => '/api/account/marketing' },
  { route: 'leaderboard opt-out', as: 'user', method: 'PUT', url: () => '/api/account/leaderboard' },
  { route: 'delete account', as: 'user', method: 'POST', url: () => '/api/account/delete' },
  { route: 'portfolio analysis', as: 'user', method: 'POST', url: () => '/api/analyze-card-images' },
];

const bodies: Case[] = jsonRoutes.flatMap(({ route, as, method, url }): Case[] => [
  { category: 'malformed JSON', name: `${route}: cut short`, as, request: (c) => ({ method, url: url(c), ...json('{"cardName": "Pika') }), status: 400, code: 'invalid_json' },
  { category: 'malformed JSON', name: `${route}: 5,000 nested objects`, as, request: (c) => ({ method, url: url(c), ...json(deepJson(5_000)) }), status: 400, code: 'invalid_request' },
  { category: 'prototype keys', name: `${route}: __proto__ at the top`, as, request: (c) => ({ method, url: url(c), ...json('{"__proto__": {"isAdmin": true}, "cardName": "x"}') }), status: 400, code: 'invalid_json' },
  { category: 'content types', name: `${route}: urlencoded`, as, request: (c) => ({ method, url: url(c), payload: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), status: 415, code: 'unsupported_media_type' },
]);

const moreBodies: Case[] = [
  { category: 'malformed JSON', name: 'register: 100,000 nested arrays', as: 'guest', request: () => ({ method: 'POST', url: '/api/agscard/register', ...json(deepArray(100_000)) }), status: 400, code: 'invalid_request' },
  { category: 'malformed JSON', name: 'register: an empty body that says JSON', as: 'guest', request: () => ({ method: 'POST', url: '/api/agscard/register', ...json('') }), status: 400, code: 'invalid_json' },
  { category: 'malformed JSON', name: 'register: JSON null', as: 'guest', request: () => ({ method: 'POST', url: '/api/agscard/register', ...json('null') }), status: 400, code: 'invalid_request' },
  { category: 'malformed JSON', name: 'register: an array instead of an object', as: 'guest', request: () => ({ method: 'POST', url: '/api/agscard/register', ...json('[1,2,3]') }), status: 400, code: 'invalid_request' },
  { category: 'malformed JSON', name: 'address add: a number where text goes', as: 'user', request: () => ({ method: 'POST', url: '/api/shipping-addresses', payload: address({ city: 12 }) }), status: 400, code: 'invalid_request' },
  { category: 'prototype keys', name: 'portfolio add: constructor.prototype', as: 'user', request: () => ({ method: 'POST', url: '/api/portfolio', ...json('{"constructor": {"prototype": {"isAdmin": true}}, "cardName": "x"}') }), status: 400, code: 'invalid_json' },
  { category: 'prototype keys', name: 'address add: __proto__ nested', as: 'user', request: () => ({ method: 'POST', url: '/api/shipping-addresses', ...json(`{"fullName": "x", "extra": {"__proto__": {"polluted": 1}}}`) }), status: 400, code: 'invalid_json' },
  { category: 'content types', name: 'register: text/plain JSON from our own page', as: 'guest', request: () => ({ method: 'POST', url: '/api/agscard/register', ...json(JSON.stringify(registration()), 'text/plain') }), status: 415, code: 'unsupported_media_type' },
  { category: 'content types', name: 'register: XML', as: 'guest', request: () => ({ method: 'POST', url: '/api/agscard/register', ...json('<user/>', 'application/xml') }), status: 415, code: 'unsupported_media_type' },
  { category: 'content types', name: 'grade: JSON instead of multipart', as: 'guest', request: () => ({ method: 'POST', url: '/api/grade-card', payload: { frontImageUrl: 'https://example.com/a.jpg' } }), status: 415, code: 'multipart_required' },
  { category: 'content types', name: 'feedback: JSON instead of multipart', as: 'guest', request: () => ({ method: 'POST', url: '/api/feedback', payload: { name: 'Eve' } }), status: 415, code: 'multipart_required' },
  { category: 'content types', name: 'grade: multipart without a boundary', as: 'guest', request: () => ({ method: 'POST', url: '/api/grade-card', ...json('--x\r\n', 'multipart/form-data') }), status: 400, code: 'invalid_multipart' },
  { category: 'oversized', name: 'register: a 2 MB body', as: 'guest', request: () => ({ method: 'POST', url: '/api/agscard/register', payload: registration({ first_name: 'a'.repeat(2 * 1024 * 1024) }) }), status: 413, code: 'too_large' },
  { category: 'oversized', name: 'portfolio add: 20 kB of notes', as: 'user', request: () => ({ method: 'POST', url: '/api/portfolio', payload: portfolioCard({ notes: 'n'.repeat(20_000) }) }), status: 400, code: 'invalid_request' },
  { category: 'oversized', name: 'address add: a 300-character name', as: 'user', request: () => ({ method: 'POST', url: '/api/shipping-addresses', payload: address({ fullName: 'a'.repeat(300) }) }), status: 400, code: 'invalid_request' },
  { category: 'oversized', name: 'feedback: 100 kB of text in a field', as: 'guest', request: () => ({ method: 'POST', url: '/api/feedback', form: [['name', 'Eve'], ['email', 'eve@example.com'], ['category', 'bug'], ['feedbackText', 'x'.repeat(100_000)]] }), status: 400, code: 'invalid_request' },
  { category: 'oversized', name: 'grade: 50 form fields', as: 'guest', request: () => ({ method: 'POST', url: '/api/grade-card', form: Array.from({ length: 50 }, (_, i) => [`f${i}`, 'x'] as [string, string]) }), status: 400, code: 'unexpected_field' },
  { category: 'oversized', name: 'grade: 50 known fields', as: 'guest', request: () => ({ method: 'POST', url: '/api/grade-card', form: Array.from({ length: 50 }, () => ['cardType', 'pokemon'] as [string, string]) }), status: 413, code: 'too_large' },
  { category: 'oversized', name: 'grade: a 12 MB photo', as: 'guest', request: () => ({ method: 'POST', url: '/api/grade-card', form: [['frontImage', { bytes: Buffer.alloc(12 * 1024 * 1024, 0xff) }]] }), status: 413, code: 'upload_too_large' },
  { category: 'NUL and odd Unicode', name: 'portfolio add: NUL in the card name', as: 'user', request: () => ({ method: 'POST', url: '/api/portfolio', payload: portfolioCard({ cardName: `Pika${NUL}chu` }) }), status: 400, code: 'invalid_request' },
  { category: 'NUL and odd Unicode', name: 'address add: NUL in the city', as: 'user', request: () => ({ method: 'POST', url: '/api/shipping-addresses', payload: address({ city: `Spring${NUL}field` }) }), status: 400, code: 'invalid_request' },
  { category: 'NUL and odd Unicode', name: 'address add: a lone surrogate in the name', as: 'user', request: () => ({ method: 'POST', url: '/api/shipping-addresses', payload: address({ fullName: 'Eve\ud800' }) }), status: 400, code: 'invalid_request' },
  { category: 'NUL and odd Unicode', name: 'feedback: NUL in the text', as: 'guest', request: () => ({ method: 'POST', url: '/api/feedback', form: [['name', 'Eve'], ['email', 'eve@example.com'], ['category', 'bug'], ['feedbackText', `Hello${NUL} there, long enough.`]] }), status: 400, code: 'invalid_request' },
  { category: 'NUL and odd Unicode', name: 'portfolio add: only zero-width spaces as the name', as: 'user', request: () => ({ method: 'POST', url: '/api/portfolio', payload: portfolioCard({ cardName: '\u200b\u200b\u200b' }) }), status: 400, code: 'invalid_request' },
  { category: 'NUL and odd Unicode', name: 'forgot password: NUL in the email', as: 'guest', request: () => ({ method: 'POST', url: '/api/password-reset', payload: { email: `eve${NUL}@example.com` } }), status: 400, code: 'invalid_request' },
  { category: 'NUL and odd Unicode', name: 'reset password: NUL in the token', as: 'guest', request: () => ({ method: 'POST', url: '/api/password-reset/confirm', payload: { token: `a${NUL}b`, password: 'Secret123', password_confirmation: 'Secret123' } }), status: 400, code: 'invalid_request' },
  { category: 'NUL and odd Unicode', name: 'sign-in: NUL in the email', as: 'guest', request: () => ({ method: 'POST', url: '/api/agscard/login', payload: { email: `eve${NUL}@example.com`, password: 'x' } }), status: 400, code: 'invalid_request' },
  { category: 'NUL and odd Unicode', name: 'import upload: NUL in the file name', as: 'user', request: () => ({ method: 'POST', url: '/api/ultra-fast-upload', form: [['file', { bytes: Buffer.from(CSV), type: 'text/csv', filename: `cards${NUL}.csv` }]] }), status: 400, code: 'invalid_text' },
  { category: 'NUL and odd Unicode', name: 'import upload: an escape character in the file name', as: 'user', request: () => ({ method: 'POST', url: '/api/ultra-fast-upload', form: [['file', { bytes: Buffer.from(CSV), type: 'text/csv', filename: 'cards\u001b[31m.csv' }]] }), status: 400, code: 'invalid_text' },
  { category: 'NUL and odd Unicode', name: 'portfolio add: invalid UTF-8 in the JSON body', as: 'user', request: () => ({ method: 'POST', url: '/api/portfolio', ...json(Buffer.concat([Buffer.from('{"cardName":"Pika'), Buffer.from([0xff, 0xfe]), Buffer.from('chu"}')])) }), status: 400, code: 'invalid_json' },
  { category: 'NUL and odd Unicode', name: 'address add: an overlong UTF-8 sequence for "/"', as: 'user', request: () => ({ method: 'POST', url: '/api/shipping-addresses', ...json(Buffer.concat([Buffer.from(JSON.stringify(address()).slice(0, -1) + ',"addressLine2":"a'), Buffer.from([0xc0, 0xaf]), Buffer.from('b"}')])) }), status: 400, code: 'invalid_json' },
  ...(['0000-01-01', '1899-12-31', '2100-01-01', '9999-12-31'] as const).flatMap((day): Case[] => [
    { category: 'dates', name: `portfolio add: acquired ${day}`, as: 'user', request: () => ({ method: 'POST', url: '/api/portfolio', payload: portfolioCard({ acquisitionDate: day }) }), status: 400, code: 'invalid_request' },
    { category: 'dates', name: `portfolio patch: acquired ${day}`, as: 'user', request: (c) => ({ method: 'PATCH', url: `/api/portfolio/${c.portfolioId}`, payload: { acquisitionDate: day } }), status: 400, code: 'invalid_request' },
  ]),
];

// ── Ids of every shape ─────────────────────────────────────────────────────────────────────────────────
const cardIds: Array<[string, string]> = [
  ['10,000 characters', 'A'.repeat(10_000)],
  ['negative', '-1'],
  ['a path out', '..%2F..%2Fetc%2Fpasswd'],
  ['NUL', '%00'],
  ['Unicode', '%E5%8D%A1%E7%89%8C'],
  ['one character short', 'A'.repeat(21)],
];
const ids: Case[] = [
  ...cardIds.map(([shape, id]): Case => ({ category: 'ids', name: `card page: ${shape}`, as: 'guest', request: () => ({ method: 'GET', url: `/api/card/${id}` }), status: 404, code: 'card_not_found' })),
  ...cardIds.map(([shape, id]): Case => ({ category: 'ids', name: `delete card: ${shape}`, as: 'user', request: () => ({ method: 'DELETE', url: `/api/card/${id}` }), status: 404, code: 'card_not_found' })),
  { category: 'ids', name: "delete card: another user's", as: 'other', request: (c) => ({ method: 'DELETE', url: `/api/card/${c.cardId}` }), status: 404, code: 'card_not_found' },
  ...(['-1', '0', '1.5', '1e3', '99999999999', 'abc', 'A'.repeat(10_000)] as const).map((id): Case => ({ category: 'ids', name: `portfolio card: ${id.length > 20 ? '10,000 characters' : id}`, as: 'user', request: () => ({ method: 'GET', url: `/api/portfolio/${id}` }), status: 404, code: 'portfolio_card_not_found' })),
  { category: 'ids', name: "portfolio card: another user's", as: 'other', request: (c) => ({ method: 'GET', url: `/api/portfolio/${c.portfolioId}` }), status: 404, code: 'portfolio_card_not_found' },
  { category: 'ids', name: "portfolio edit: another user's", as: 'other', request: (c) => ({ method: 'PATCH', url: `/api/portfolio/${c.portfolioId}`, payload: { cardName: 'Mine now' } }), status: 404, code: 'portfolio_card_not_found' },
  { category: 'ids', name: "portfolio delete: another user's", as: 'other', request: (c) => ({ method: 'DELETE', url: `/api/portfolio/${c.portfolioId}` }), status: 404, code: 'portfolio_card_not_found' },
  { category: 'ids', name: "address edit: another user's", as: 'other', request: (c) => ({ method: 'PUT', url: `/api/shipping-addresses/${c.addressId}`, payload: address() }), status: 404, code: 'address_not_found' },
  { category: 'ids', name: "address delete: another user's", as: 'other', request: (c) => ({ method: 'DELETE', url: `/api/shipping-addresses/${c.addressId}` }), status: 404, code: 'address_not_found' },
  { category: 'ids', name: 'address delete: 10,000 characters', as: 'user', request: () => ({ method: 'DELETE', url: `/api/shipping-addresses/${'a'.repeat(10_000)}` }), status: 404, code: 'address_not_found' },
  { category: 'ids', name: 'address default: negative', as: 'user', request: () => ({ method: 'PUT', url: '/api/shipping-addresses/-1/set-default' }), status: 404, code: 'address_not_found' },
  { category: 'ids', name: 'order: negative', as: 'user', request: () => ({ method: 'GET', url: '/api/orders/-1' }), status: 404, code: 'order_not_found' },
  { category: 'ids', name: 'order: 10,000 characters', as: 'user', request: () => ({ method: 'GET', url: `/api/orders/${'9'.repeat(10_000)}` }), status: 404, code: 'order_not_found' },
  { category: 'ids', name: "submit-card: another user's card", as: 'other', request: (c) => ({ method: 'GET', url: `/api/submit-card/${c.cardId}` }), status: 404, code: 'card_not_found' },
  { category: 'ids', name: 'submit-card: 10,000 characters', as: 'user', request: () => ({ method: 'GET', url: `/api/submit-card/${'A'.repeat(10_000)}` }), status: 404, code: 'card_not_found' },
  { category: 'ids', name: 'achievement shown: 10,000 characters', as: 'user', request: () => ({ method: 'POST', url: `/api/mark-achievement-shown/${'a'.repeat(10_000)}` }), status: 404, code: 'achievement_not_found' },
  { category: 'ids', name: 'image: a path out', as: 'guest', request: () => ({ method: 'GET', url: '/api/images/..%2F..%2Fpg%2Fpostgresql.conf' }), status: 400, code: 'image_hash_invalid' },
  { category: 'ids', name: 'image: upper-case hex', as: 'guest', request: () => ({ method: 'GET', url: `/api/images/${'A'.repeat(64)}` }), status: 400, code: 'image_hash_invalid' },
  { category: 'ids', name: 'image: 10,000 characters', as: 'guest', request: () => ({ method: 'GET', url: `/api/images/${'a'.repeat(10_000)}` }), status: 400, code: 'image_hash_invalid' },
  { category: 'ids', name: 'image: unknown', as: 'guest', request: () => ({ method: 'GET', url: `/api/images/${'0'.repeat(64)}` }), status: 404, code: 'image_not_found' },
  { category: 'ids', name: 'no such API route (10,000 characters)', as: 'guest', request: () => ({ method: 'GET', url: `/api/${'x'.repeat(10_000)}` }), status: 404, code: 'route_not_found' },
  ...(['-1', 'not-a-uuid', '00000000-0000-4000-8000-000000000000', 'a'.repeat(10_000)] as const).map((id): Case => ({ category: 'ids', name: `import: ${id.length > 40 ? '10,000 characters' : id}`, as: 'user', request: () => ({ method: 'GET', url: `/api/imports/${id}` }), status: 404, code: 'import_not_found' })),
  { category: 'ids', name: "import: another user's", as: 'other', request: (c) => ({ method: 'GET', url: `/api/imports/${c.importId}` }), status: 404, code: 'import_not_found' },
  { category: 'ids', name: "import delete: another user's", as: 'other', request: (c) => ({ method: 'DELETE', url: `/api/imports/${c.importId}` }), status: 404, code: 'import_not_found' },
  { category: 'ids', name: 'signed out: the orders of nobody', as: 'guest', request: () => ({ method: 'GET', url: '/api/orders' }), status: 401, code: 'unauthorized' },
];

// ── Photos ─────────────────────────────────────────────────────────────────────────────────────────────
const photos: Case[] = [
  { category: 'images', name: 'a 20,000 x 20,000 PNG (decompression bomb)', as: 'guest', request: (c) => ({ method: 'POST', url: '/api/grade-card', form: [['frontImage', { bytes: c.bomb, type: 'image/png', filename: 'bomb.png' }]] }), status: 413, code: 'image_too_large' },
  { category: 'images', name: 'a JPEG cut in half', as: 'guest', request: (c) => ({ method: 'POST', url: '/api/grade-card', form: [['frontImage', { bytes: c.jpeg.subarray(0, c.jpeg.length >> 1) }]] }), status: 422, code: 'truncated_image' },
  { category: 'images', name: 'random bytes named .jpg', as: 'guest', request: () => ({ method: 'POST', url: '/api/grade-card', form: [['frontImage', { bytes: Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)) }]] }), status: 415, code: 'not_an_image' },
  { category: 'images', name: 'an SVG with a script', as: 'guest', request: () => ({ method: 'POST', url: '/api/grade-card', form: [['frontImage', { bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), type: 'image/svg+xml', filename: 'x.svg' }]] }), status: 415, code: 'not_an_image' },
  { category: 'images', name: 'an empty file', as: 'guest', request: () => ({ method: 'POST', url: '/api/grade-card', form: [['frontImage', { bytes: Buffer.alloc(0) }]] }), status: 422, code: 'empty_image' },
  { category: 'images', name: 'a 20,000 x 20,000 PNG for the portfolio analysis (base64)', as: 'user', request: (c) => ({ method: 'POST', url: '/api/analyze-card-images', payload: { frontImage: c.bomb.toString('base64') } }), status: 413, code: 'image_too_large' },
  { category: 'images', name: 'feedback with a script as its picture', as: 'guest', request: () => ({ method: 'POST', url: '/api/feedback', form: [['name', 'Eve'], ['email', 'eve@example.com'], ['category', 'bug'], ['feedbackText', 'A picture that is not one.'], ['image', { bytes: Buffer.from('<script>alert(1)</script>'), type: 'image/jpeg' }]] }), status: 415, code: 'feedback_image_invalid' },
];

// ── Image URLs that lead inside ───────────────────────────────────────────────────────────────────────
const hostileUrls: Array<[string, string, string]> = [
  ['loopback', 'http://127.0.0.1/card.jpg', 'image_url_loopback'],
  ['loopback, elsewhere in 127/8', 'http://127.1.2.3/card.jpg', 'image_url_loopback'],
  ['loopback, as one decimal number', 'http://2130706433/card.jpg', 'image_url_loopback'],
  ['loopback, in hex', 'http://0x7f000001/card.jpg', 'image_url_loopback'],
  ['loopback, in octal', 'http://0177.0.0.1/card.jpg', 'image_url_loopback'],
  ['loopback, short form', 'http://127.1/card.jpg', 'image_url_loopback'],
  ['localhost', 'http://localhost/card.jpg', 'image_url_loopback'],
  ['localhost with a trailing dot', 'http://localhost./card.jpg', 'image_url_loopback'],
  ['IPv6 loopback', 'http://[::1]/card.jpg', 'image_url_loopback'],
  ['IPv4-mapped IPv6 loopback', 'http://[::ffff:127.0.0.1]/card.jpg', 'image_url_loopback'],
  ['0.0.0.0', 'http://0.0.0.0/card.jpg', 'image_url_reserved_address'],
  ['cloud metadata', 'http://169.254.169.254/latest/meta-data/', 'image_url_link_local'],
  ['IPv6 link-local', 'http://[fe80::1]/card.jpg', 'image_url_link_local'],
  ['private 10/8', 'http://10.0.0.1/card.jpg', 'image_url_private_address'],
  ['private 172.16/12', 'http://172.16.5.4/card.jpg', 'image_url_private_address'],
  ['private 192.168/16', 'http://192.168.1.1/card.jpg', 'image_url_private_address'],
  ['carrier-grade NAT', 'http://100.64.0.1/card.jpg', 'image_url_private_address'],
  ['IPv6 unique local', 'http://[fd12:3456::1]/card.jpg', 'image_url_private_address'],
  ['IPv4-mapped private', 'http://[::ffff:10.0.0.1]/card.jpg', 'image_url_private_address'],
  ['NAT64 of metadata', 'http://[64:ff9b::a9fe:a9fe]/card.jpg', 'image_url_link_local'],
  ['credentials in the URL', 'http://user:secret@127.0.0.1/card.jpg', 'image_url_loopback'],
  ['file:', 'file:///etc/passwd', 'image_url_scheme_refused'],
  ['gopher:', 'gopher://127.0.0.1:6379/_FLUSHALL', 'image_url_scheme_refused'],
  ['data:', 'data:image/png;base64,iVBORw0KGgo=', 'image_url_scheme_refused'],
  ['javascript:', 'javascript:alert(1)', 'image_url_scheme_refused'],
];
const urls: Case[] = [
  ...hostileUrls.map(([shape, url, code]): Case => ({ category: 'hostile URLs', name: `grade from ${shape}`, as: 'guest', request: () => ({ method: 'POST', url: '/api/grade-card', form: [['frontImageUrl', url]] }), status: 400, code })),
  ...(
    [
      ['loopback', 'http://127.0.0.1:6379/', 'image_url_loopback'],
      ['cloud metadata', 'http://169.254.169.254/latest/meta-data/iam/', 'image_url_link_local'],
      ['a private address', 'http://192.168.0.1/', 'image_url_private_address'],
      ['IPv6 loopback', 'http://[::1]/', 'image_url_loopback'],
      ['file:', 'file:///etc/passwd', 'image_url_scheme_refused'],
    ] as const
  ).map(([shape, target, code]): Case => ({
    category: 'hostile URLs',
    name: `a public URL that redirects to ${shape}`,
    as: 'guest',
    request: (c) => ({ method: 'POST', url: '/api/grade-card', form: [['frontImageUrl', `${c.photos}/redirect?to=${encodeURIComponent(target)}`]] }),
    status: 400,
    code,
  })),
  { category: 'hostile URLs', name: 'portfolio analysis from cloud metadata', as: 'user', request: () => ({ method: 'POST', url: '/api/analyze-card-images', payload: { frontImage: 'http://169.254.169.254/latest/meta-data/' } }), status: 400, code: 'image_url_link_local' },
];

const cases: Case[] = [...csrf, ...simplePosts, ...bodies, ...moreBodies, ...ids, ...photos, ...urls];

describe('hostile input at every route, one server', () => {
  let h: CardsHarness;
  let photoServer: http.Server;
  const context = {} as Context;
  const browsers = {} as Record<Who, Browser>;
  const count = async (table: 'es_events' | 'sessions') => Number((await h.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    // "photos.example" resolves to a public address that the fake network routes to a loopback server: a public
    // image host whose redirects lead inside.
    photoServer = http.createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://photos.example');
      response.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
    });
    await new Promise<void>((resolve) => photoServer.listen(0, '127.0.0.1', resolve));
    const { port } = photoServer.address() as AddressInfo;
    const PUBLIC: ResolvedAddress = { address: '93.184.216.34', family: 4 };
    h = await startCardsApp(
      'pglite',
      { ALLOW_LOOPBACK_IMAGE_URLS: 'false', AUTH_RATE_LIMIT_PER_ADDRESS: '100000', AUTH_RATE_LIMIT_PER_ACCOUNT: '100000', GRADE_LIMIT_GUEST_PER_MINUTE: '100000', GRADE_LIMIT_USER_PER_MINUTE: '100000' },
      {
        runtime: (runtime) => ({
          ...runtime,
          imageFetcher: createImageFetcher({
            timeoutMs: 2_000,
            maxBytes: runtime.config.IMAGE_MAX_BYTES,
            concurrency: 4,
            allowLoopback: false,
            resolve: async (name) => (name === 'photos.example' ? [PUBLIC] : systemResolver(name)),
            routeTo: (address) => (address.address === PUBLIC.address ? { address: '127.0.0.1', family: 4 } : address),
          }),
        }),
      },
    );
    context.photos = `http://photos.example:${port}`;
    context.jpeg = await samplePhoto(1);
    context.bomb = pngOfZeros(20_000, 20_000);

    const user = await h.registered();
    const other = await h.registered();
    browsers.user = user.browser;
    browsers.other = other.browser;
    browsers.guest = h.browser();
    const graded = await user.browser.grade([['frontImage', { bytes: context.jpeg }]]);
    context.cardId = graded.json().id;
    context.portfolioId = (await user.browser.post('/api/portfolio', portfolioCard())).json().id;
    context.addressId = (await user.browser.post('/api/shipping-addresses', address())).json().id;
    const started = await user.browser.grade([['file', { bytes: Buffer.from(CSV), type: 'text/csv', filename: 'cards.csv' }]], '/api/ultra-fast-upload');
    context.importId = started.json().importId;
    expect([context.cardId, context.portfolioId, context.addressId, context.importId].every(Boolean)).toBe(true);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    photoServer?.close();
  });

  it(`has at least 100 cases (${cases.length}) in every category`, () => {
    const byCategory = Object.groupBy(cases, (c) => c.category);
    const counts = Object.fromEntries(Object.entries(byCategory).map(([k, v]) => [k, v!.length]));
    console.info('hostile cases by category', counts);
    expect(cases.length).toBeGreaterThanOrEqual(100);
  });

  it('each gets its exact status and code, writes nothing, and /healthz answers after it', async () => {
    const wrong: unknown[] = [];
    for (const testCase of cases) {
      const request = testCase.request(context);
      const browser = browsers[testCase.as];
      const [events, sessions] = await Promise.all([count('es_events'), count('sessions')]);
      let payload = request.payload;
      let headers = { ...request.headers };
      if (request.form) {
        const { body, contentType } = await multipartBody(request.form);
        payload = body;
        headers = { 'content-type': contentType, ...headers };
      }
      if (headers.origin === '') {
        // The harness adds our Origin to writes; this case sends none.
        headers = Object.fromEntries(Object.entries(headers).filter(([k]) => k !== 'origin'));
        const response = await h.app.inject({ method: request.method, url: request.url, headers: { host: HOST, ...headers, ...(browser.jar.sid ? { cookie: `sid=${browser.jar.sid}` } : {}) }, ...(payload === undefined ? {} : { payload }) });
        check(testCase, response.statusCode, response.body);
      } else {
        const response = await browser.send({ method: request.method, url: request.url, headers, ...(payload === undefined ? {} : { payload }) });
        check(testCase, response.statusCode, response.body);
      }
      const [eventsAfter, sessionsAfter] = await Promise.all([count('es_events'), count('sessions')]);
      if (eventsAfter !== events || sessionsAfter !== sessions) wrong.push({ case: testCase.name, wrote: { events: eventsAfter - events, sessions: sessionsAfter - sessions } });
      const health = await h.app.inject({ method: 'GET', url: '/healthz' });
      if (health.statusCode !== 200) wrong.push({ case: testCase.name, healthz: health.statusCode });
    }
    function check(testCase: Case, status: number, body: string) {
      let code: unknown;
      try {
        code = (JSON.parse(body) as { code?: unknown }).code;
      } catch {
        code = `(not JSON) ${body.slice(0, 80)}`;
      }
      if (status !== testCase.status || code !== testCase.code) wrong.push({ case: `${testCase.category}: ${testCase.name}`, expected: `${testCase.status} ${testCase.code}`, got: `${status} ${String(code)}` });
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('a WebSocket opened from a foreign Origin is closed (4403); one opened with another user\'s cookie hears nothing of this user\'s imports', async () => {
    const closed = await new Promise<number>((resolve) => {
      void h.app.injectWS('/ws', { headers: { host: HOST, origin: 'https://evil.example', cookie: `sid=${browsers.user.jar.sid}` } }).then((socket) => socket.on('close', (code: number) => resolve(code)));
    });
    expect(closed).toBe(4403);

    const heard = { user: [] as string[], other: [] as string[] };
    const sockets = await Promise.all(
      (['user', 'other'] as const).map(async (who) => {
        const socket = await h.app.injectWS('/ws', { headers: { host: HOST, origin: `http://${HOST}`, cookie: `sid=${browsers[who].jar.sid}` } });
        socket.on('message', (data: Buffer) => heard[who].push(data.toString()));
        return socket;
      }),
    );
    const started = await browsers.user.grade([['file', { bytes: Buffer.from(CSV), type: 'text/csv', filename: 'cards.csv' }]], '/api/ultra-fast-upload');
    expect(started.statusCode).toBe(200);
    const importId = started.json().importId as string;
    for (const deadline = Date.now() + 10_000; !heard.user.some((m) => m.includes(importId)); await new Promise((resolve) => setTimeout(resolve, 20))) {
      if (Date.now() > deadline) throw new Error('the owner heard nothing of the import');
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard.other).toEqual([]);
    for (const socket of sockets) socket.terminate();
  }, 30_000);
});
