import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSheetRows } from '../../src/domain/imports/index.ts';
import { SECURITY_HEADERS_WITHOUT_HELMET } from '../../src/http/plugins/security-headers.ts';
import { routeDatabaseKind } from '../support/database.ts';
import { HOST, ORIGIN, samplePhoto, startCardsApp, type Browser, type CardsHarness } from '../http/cards-harness.ts';

// Issue 34, "one error shape": every answer the server sends is `{ error, code }` with the security headers, the
// refusals Node's HTTP parser and fastify make before any route included, over a real socket (inject never reaches the
// parser); nothing the client sent is echoed back; no input is a 500; the one text rule covers every free text.

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes `request` as it is on a new connection and reads the answer until the server closes it (or 5 s). */
function sendRaw(port: number, request: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), 5_000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(split + 4) });
    });
    socket.write(request);
  });
}

/** The answer has the one shape, the security headers, and none of `marker` (what the client sent). */
function expectOneShape(answer: RawAnswer, status: number, code: string, marker?: string) {
  expect(answer.status).toBe(status);
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['code', 'error']);
  expect(body.code).toBe(code);
  expect(typeof body.error).toBe('string');
  for (const [name, value] of Object.entries(SECURITY_HEADERS_WITHOUT_HELMET)) expect(answer.headers[name], name).toBe(value);
  if (marker !== undefined) expect(`${JSON.stringify(answer.headers)}${answer.body}`).not.toContain(marker);
}

describe('one error shape, on a listening server', () => {
  let h: CardsHarness;
  let port: number;
  let user: Browser;

  beforeAll(async () => {
    h = await startCardsApp(await routeDatabaseKind());
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    port = (h.app.server.address() as AddressInfo).port;
    user = (await h.registered()).browser;
  }, 60_000);
  afterAll(async () => h?.close());

  it("the security headers written by hand are helmet's own", async () => {
    const healthz = await sendRaw(port, `GET /healthz HTTP/1.1\r\nHost: ${HOST}\r\nConnection: close\r\n\r\n`);
    expect(healthz.status).toBe(200);
    const helmets = Object.keys(healthz.headers).filter((name) => /^(x-|cross-origin-|content-security-policy|referrer-policy|origin-agent-cluster)/.test(name));
    expect(helmets.sort()).toEqual(Object.keys(SECURITY_HEADERS_WITHOUT_HELMET).sort());
    for (const name of helmets) expect(SECURITY_HEADERS_WITHOUT_HELMET[name], name).toBe(healthz.headers[name]);
  });

  it("the HTTP parser's refusals: headers too large (431), malformed requests (400), an unknown Expect (417)", async () => {
    const marker = 'MARKER-4ff1';
    expectOneShape(await sendRaw(port, `GET /api/cards HTTP/1.1\r\nHost: ${HOST}\r\nX-Big: ${marker}${'a'.repeat(20_000)}\r\n\r\n`), 431, 'headers_too_large', marker);
    expectOneShape(await sendRaw(port, `${marker} NOT HTTP\r\n\r\n`), 400, 'malformed_request', marker);
    expectOneShape(await sendRaw(port, `GET /healthz HTTP/1.1\r\nHost: ${HOST}\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab`), 400, 'malformed_request');
    expectOneShape(await sendRaw(port, `GET /healthz HTTP/1.1\r\nHost: ${HOST}\r\nTransfer-Encoding: chunked\r\n\r\nzz${marker}\r\n`), 400, 'malformed_request', marker);
    expectOneShape(await sendRaw(port, `GET /healthz HTTP/1.1\r\nHost: ${HOST}\r\nExpect: ${marker}\r\nConnection: close\r\n\r\n`), 417, 'expectation_failed', marker);
  });

  it("fastify's own: a URL it cannot decode (not echoed back), an unknown route, too large, the wrong type", async () => {
    const marker = 'MARKER-9c2e';
    expectOneShape(await sendRaw(port, `GET /api/${marker}%E0%A4%A HTTP/1.1\r\nHost: ${HOST}\r\nConnection: close\r\n\r\n`), 400, 'bad_url', marker);
    expectOneShape(await sendRaw(port, `GET /api/${marker}<script> HTTP/1.1\r\nHost: ${HOST}\r\nConnection: close\r\n\r\n`), 404, 'route_not_found', marker);
    expectOneShape(await sendRaw(port, `POST /api/portfolio HTTP/1.1\r\nHost: ${HOST}\r\nOrigin: ${ORIGIN}\r\nContent-Type: application/json\r\nContent-Length: ${5 * 1024 * 1024}\r\nConnection: close\r\n\r\n{"a":`), 413, 'too_large');
    const plain = `${marker} plain text`;
    expectOneShape(await sendRaw(port, `POST /api/agscard/login HTTP/1.1\r\nHost: ${HOST}\r\nOrigin: ${ORIGIN}\r\nContent-Type: text/plain\r\nContent-Length: ${plain.length}\r\nConnection: close\r\n\r\n${plain}`), 415, 'unsupported_media_type', marker);
  });

  it('a day outside 1900-2099 is a 400 saying so, on POST and PATCH (this engine; every-route.test.ts has PGlite)', async () => {
    const added = await user.post('/api/portfolio', { cardName: 'Pikachu', acquisitionDate: '2024-02-29' });
    expect(added.statusCode).toBe(201);
    for (const day of ['0000-01-01', '1899-12-31', '2100-01-01']) {
      const posted = await user.post('/api/portfolio', { cardName: 'Pikachu', acquisitionDate: day });
      expect(posted.statusCode, day).toBe(400);
      expect(posted.json().error).toContain('between 1900-01-01 and 2099-12-31');
      const patched = await user.patch(`/api/portfolio/${added.json().id}`, { acquisitionDate: day });
      expect(patched.statusCode, day).toBe(400);
    }
  });

  it('invalid UTF-8 in a JSON body is refused, not stored as U+FFFD', async () => {
    const body = Buffer.concat([Buffer.from('{"cardName":"Pika'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('chu"}')]);
    const response = await user.send({ method: 'POST', url: '/api/portfolio', headers: { 'content-type': 'application/json' }, payload: body });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'The request body is not valid UTF-8.', code: 'invalid_json' });
    expect((await user.get('/api/portfolio')).body).not.toContain('\ufffd');
  });

  it('the one text rule: bidirectional overrides and zero-width spaces are taken out of address lines, notes, import file names and ItemIDs', async () => {
    const RLO = '\u202e';
    const ZWSP = '\u200b';
    const address = await user.post('/api/shipping-addresses', { fullName: 'Eve Hacker', addressLine1: `1 Main${RLO} St`, addressLine2: `Flat${ZWSP} 2`, city: `Spring${RLO}field`, state: 'IL', zipCode: '62701', country: 'United States' });
    expect(address.statusCode).toBe(201);
    expect([address.json().addressLine1, address.json().addressLine2, address.json().city]).toEqual(['1 Main St', 'Flat 2', 'Springfield']);
    const card = await user.post('/api/portfolio', { cardName: 'Pikachu', notes: `Bought at${RLO} a fair\nsecond line`, cardSet: `Base${RLO}` });
    expect(card.statusCode).toBe(201);
    expect([card.json().notes, card.json().cardSet]).toEqual(['Bought at a fair\nsecond line', 'Base']);

    const upload = await user.grade([['file', { bytes: Buffer.from('FrontImage,ItemID\nhttp://10.0.0.1/card.jpg,A1\n'), type: 'text/csv', filename: `invoice${RLO}vsc.csv` }]], '/api/ultra-fast-upload');
    expect(upload.statusCode).toBe(200);
    const listed = (await user.get('/api/imports')).json() as Array<{ fileName: string }>;
    expect(listed.map((i) => i.fileName)).toContain('invoicevsc.csv');

    const rows = readSheetRows([['FrontImage', 'ItemID'], ['https://example.com/a.jpg', `COMC${RLO}123${ZWSP}`], ['https://example.com/b.jpg', `${ZWSP}${ZWSP}`]]);
    expect(rows.map((r) => r.itemId)).toEqual(['COMC123', null]);
  });

  it('analyze-card-images reads base64 wrapped in 76-character lines (data: URL and bare)', async () => {
    const photo = (await samplePhoto(1)).toString('base64');
    const wrapped = photo.match(/.{1,76}/g)!.join('\r\n');
    for (const frontImage of [wrapped, `data:image/jpeg;base64,${photo.match(/.{1,76}/g)!.join('\n')}`]) {
      const response = await user.post('/api/analyze-card-images', { frontImage });
      expect(response.statusCode, response.body).toBe(200);
    }
  }, 60_000);
});
