import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startCardsApp, type CardsHarness } from '../http/cards-harness.ts';

// Behind a proxy the client's address is read from the right of X-Forwarded-For, past the trusted proxies only:
// a client that forges the left part of the header on every attempt is still one address to the sign-in limit.

const PER_ADDRESS = 10;

describe('TRUST_PROXY', () => {
  it('is a hop count or the proxies\' addresses, never "trust everything"', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/number of proxies/);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/hop count or IP addresses/);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '192.168.1.7']);
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
  });

  describe.each([
    ['a hop count', '1'],
    ['the proxy\'s range', '10.1.0.0/16'],
  ])('given as %s', (_name, setting) => {
    let harness: CardsHarness;
    beforeAll(async () => {
      harness = await startCardsApp('pglite', { TRUST_PROXY: setting, AUTH_RATE_LIMIT_PER_ADDRESS: String(PER_ADDRESS), AUTH_RATE_LIMIT_PER_ACCOUNT: '1000' });
    });
    afterAll(async () => harness?.close());

    it('a client rotating forged forwarded addresses still meets the per-address sign-in limit', async () => {
      const proxy = harness.browser(); // its address (10.1.x.y) is the load balancer's
      const statuses: number[] = [];
      for (let attempt = 1; attempt <= PER_ADDRESS + 2; attempt++) {
        const response = await proxy.send({
          method: 'POST',
          url: '/api/agscard/login',
          // The proxy appends the address it saw (the real client's) to whatever the client sent.
          headers: { 'x-forwarded-for': `198.51.100.${attempt}, 203.0.113.7`, 'content-type': 'application/json' },
          payload: JSON.stringify({ email: `nobody${attempt}@example.com`, password: 'Wrong1234' }),
        });
        statuses.push(response.statusCode);
      }
      expect(statuses.slice(0, PER_ADDRESS).every((s) => s === 401)).toBe(true);
      expect(statuses.slice(PER_ADDRESS)).toEqual([429, 429]);

      // Another client behind the same proxy is another address.
      const other = await proxy.send({
        method: 'POST',
        url: '/api/agscard/login',
        headers: { 'x-forwarded-for': '203.0.113.8', 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'nobody@example.com', password: 'Wrong1234' }),
      });
      expect(other.statusCode).toBe(401);
    });
  });
});
