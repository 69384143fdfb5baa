import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryRateLimiter, redisRateLimiter } from '../../src/infra/auth/rate-limiter.ts';
import { redisAvailable, TEST_REDIS_URL } from '../support/services.ts';

describe('memory rate limiter', () => {
  it('allows max hits per window, then refuses until the window ends', async () => {
    let time = 0;
    const limiter = memoryRateLimiter({ now: () => new Date(time) });
    const rule = { max: 2, windowMs: 1000 };
    expect((await limiter.hit('k', rule)).allowed).toBe(true);
    time = 400;
    expect((await limiter.hit('k', rule)).allowed).toBe(true);
    expect(await limiter.hit('k', rule)).toEqual({ allowed: false, count: 3, retryAfterMs: 600 });
    expect((await limiter.hit('other', rule)).allowed).toBe(true);
    time = 1000;
    expect((await limiter.hit('k', rule)).allowed).toBe(true);
    await limiter.hit('k', rule);
    await limiter.reset('k');
    expect((await limiter.hit('k', rule)).allowed).toBe(true);
  });
});

describe.runIf(await redisAvailable())('redis rate limiter', () => {
  const connections = [new Redis(TEST_REDIS_URL), new Redis(TEST_REDIS_URL)];
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  afterAll(async () => {
    const keys = await connections[0]!.keys(`${prefix}*`);
    if (keys.length) await connections[0]!.del(...keys);
    await Promise.all(connections.map((c) => c.quit()));
  });

  it('shares one count between API processes', async () => {
    const [a, b] = connections.map((c) => redisRateLimiter(c, prefix));
    const rule = { max: 3, windowMs: 60_000 };
    const results = await Promise.all([a!.hit('login', rule), b!.hit('login', rule), a!.hit('login', rule), b!.hit('login', rule)]);
    expect(results.filter((r) => r.allowed)).toHaveLength(3);
    const refused = results.find((r) => !r.allowed)!;
    expect(refused.retryAfterMs).toBeGreaterThan(59_000);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(60_000);
    await b!.reset('login');
    expect((await a!.hit('login', rule)).allowed).toBe(true);
  });

  it('starts a new window when the old one expires', async () => {
    const limiter = redisRateLimiter(connections[0]!, prefix);
    const rule = { max: 1, windowMs: 150 };
    expect((await limiter.hit('short', rule)).allowed).toBe(true);
    expect((await limiter.hit('short', rule)).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await limiter.hit('short', rule)).allowed).toBe(true);
  });
});

describe('redis rate limiter with Redis unreachable', () => {
  it('fails open at once: a closed port costs no command timeout per hit, and one failure is reported per cool-off', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    // The accounts' own settings (src/infra/auth/accounts.ts).
    const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 2, commandTimeout: 1_000 });
    redis.on('error', () => {});
    const errors: unknown[] = [];
    const limiter = redisRateLimiter(redis, 'unreachable:', (error) => errors.push(error));
    const rule = { max: 1, windowMs: 60_000 };
    try {
      const started = performance.now();
      const results = [];
      for (let n = 0; n < 20; n++) results.push(await limiter.hit('login:address:203.0.113.9', rule));
      await limiter.reset('login:account:someone');
      const ms = performance.now() - started;
      expect(results.every((r) => r.allowed)).toBe(true);
      // One command may wait for its timeout (1 s); the rest are not sent.
      expect(ms).toBeLessThan(1_500);
      expect(errors.length).toBeLessThanOrEqual(1);
    } finally {
      redis.disconnect();
    }
  });
});
