import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { SECURITY_HEADERS_WITHOUT_HELMET } from '../../src/http/plugins/security-headers.ts';
import { routeDatabaseKind } from '../support/database.ts';
import { startCardsApp, type CardsHarness } from './cards-harness.ts';

// Issue 34, allowed hosts: a page on an attacker's name resolved to 127.0.0.1 (DNS rebinding) sends its own name as
// Host and Origin, which "Origin is the same host" let through. The Host must be one the app is reached at:
// PUBLIC_ORIGIN's, or by default the server's own loopback names on its port; the origin check compares against
// PUBLIC_ORIGIN. Real requests over loopback.

function request(port: number, options: { method?: string; path: string; host: string; origin?: string; body?: string }): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = http.request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { host: options.host, ...(options.origin ? { origin: options.origin } : {}), ...(options.body ? { 'content-type': 'application/json' } : {}) },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
      },
    );
    sent.on('error', reject);
    sent.end(options.body);
  });
}

async function listening(env: Record<string, string>): Promise<{ h: CardsHarness; port: number }> {
  const h = await startCardsApp(await routeDatabaseKind(), env);
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  return { h, port: (h.app.server.address() as AddressInfo).port };
}

const signIn = JSON.stringify({ email: 'nobody@example.com', password: 'Secret123' });

describe('allowed hosts: the embedded default', () => {
  let h: CardsHarness;
  let port: number;
  beforeAll(async () => ({ h, port } = await listening({ PUBLIC_ORIGIN: '' })), 60_000);
  afterAll(async () => h?.close());

  it("answers for its own loopback names on its own port, and for nothing else (421 in the one shape)", async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`]) {
      expect((await request(port, { path: '/api/user', host })).status, host).toBe(401);
    }
    for (const host of ['attacker.example', `attacker.example:${port}`, `127.0.0.1:${port + 1}`, '127.0.0.1', `localhost.attacker.example:${port}`, 'not a host']) {
      const answer = await request(port, { path: '/api/user', host });
      expect(answer.status, host).toBe(421);
      expect(JSON.parse(answer.body)).toEqual({ error: 'This server does not answer for that host name.', code: 'unknown_host' });
      expect(answer.headers['x-content-type-options']).toBe(SECURITY_HEADERS_WITHOUT_HELMET['x-content-type-options']);
      expect(answer.body).not.toContain('attacker');
    }
  });

  it('refuses a DNS-rebinding write: Host and Origin both the attacker\'s name', async () => {
    const host = `rebind.attacker.example:${port}`;
    const answer = await request(port, { method: 'POST', path: '/api/agscard/login', host, origin: `http://${host}`, body: signIn });
    expect(answer.status).toBe(421);
    // Its own origin still signs in (401: no such account), so the check is the Host's, not a blanket refusal.
    const own = await request(port, { method: 'POST', path: '/api/agscard/login', host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}`, body: signIn });
    expect(own.status).toBe(401);
  });

  it('the probes answer whatever the Host (orchestrators ask by address)', async () => {
    expect((await request(port, { path: '/healthz', host: '10.0.0.7:3000' })).status).toBe(200);
  });
});

describe('allowed hosts: PUBLIC_ORIGIN', () => {
  let h: CardsHarness;
  let port: number;
  beforeAll(async () => ({ h, port } = await listening({ PUBLIC_ORIGIN: 'https://cards.example.com, http://alt.example:8080' })), 60_000);
  afterAll(async () => h?.close());

  it('answers for its hosts only; its own loopback names are not among them then', async () => {
    expect((await request(port, { path: '/api/user', host: 'cards.example.com' })).status).toBe(401);
    expect((await request(port, { path: '/api/user', host: 'alt.example:8080' })).status).toBe(401);
    for (const host of [`127.0.0.1:${port}`, 'alt.example', 'cards.example.com:8443', 'evil.example']) expect((await request(port, { path: '/api/user', host })).status, host).toBe(421);
  });

  it('the origin check compares against PUBLIC_ORIGIN, scheme and port included', async () => {
    const post = (origin: string) => request(port, { method: 'POST', path: '/api/agscard/login', host: 'cards.example.com', origin, body: signIn });
    expect((await post('https://cards.example.com')).status).toBe(401);
    expect((await post('http://alt.example:8080')).status).toBe(401);
    for (const origin of ['http://cards.example.com', 'https://cards.example.com:8443', 'https://evil.example']) {
      const answer = await post(origin);
      expect(answer.status, origin).toBe(403);
      expect(JSON.parse(answer.body).code).toBe('bad_origin');
    }
  });

  it('PUBLIC_ORIGIN takes origins only', () => {
    expect(() => loadConfig({ PUBLIC_ORIGIN: 'https://cards.example.com/app' })).toThrow(/PUBLIC_ORIGIN takes origins/);
    expect(() => loadConfig({ PUBLIC_ORIGIN: 'cards.example.com' })).toThrow(/PUBLIC_ORIGIN takes origins/);
    expect(loadConfig({ PUBLIC_ORIGIN: 'HTTPS://Cards.Example.com:443/' }).PUBLIC_ORIGIN).toEqual(['https://cards.example.com']);
  });
});
