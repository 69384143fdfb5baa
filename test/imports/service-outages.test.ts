import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/contracts/errors.ts';
import { ImageStoreUnavailableError } from '../../src/infra/image-storage/image-store.ts';
import { createOutageWaiter, serviceDownIn } from '../../src/workers/imports/service-outages.ts';

// Which failures of an import row are our services being down (the row waits for them), and the waiting itself.

describe('serviceDownIn', () => {
  it('names our own services: the image store, the image folder, the database, the queue', () => {
    expect(serviceDownIn(new ImageStoreUnavailableError(new Error('connect ECONNREFUSED 127.0.0.1:9000')))).toBe('images');
    expect(serviceDownIn(new AppError('unavailable', 'storage_unavailable', 'x'))).toBe('images');
    expect(serviceDownIn(Object.assign(new Error('Connection terminated unexpectedly'), {}))).toBe('database');
    expect(serviceDownIn(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', severity: 'FATAL' }))).toBe('database');
    expect(serviceDownIn(Object.assign(new Error("Stream isn't writeable and enableOfflineQueue options is false"), {}))).toBe('queue');
  });

  it("a photo host's trouble is the row's own, never an outage of ours, even with a network cause", () => {
    const dns = Object.assign(new Error('getaddrinfo EAI_AGAIN photos.example.com'), { code: 'EAI_AGAIN', syscall: 'getaddrinfo' });
    const refused = Object.assign(new Error('connect ECONNREFUSED 203.0.113.5:80'), { code: 'ECONNREFUSED', syscall: 'connect' });
    for (const [code, cause] of [['image_url_unresolvable', dns], ['image_download_failed', refused], ['image_download_timeout', undefined], ['image_download_http_error', undefined]] as const) {
      const error = new AppError('unprocessable', code, 'Front image: could not be downloaded');
      if (cause) error.cause = cause;
      expect(serviceDownIn(error), code).toBeNull();
    }
    expect(serviceDownIn(new AppError('rate_limited', 'grading_rate_limited', 'x'))).toBeNull();
    expect(serviceDownIn(new Error('something else'))).toBeNull();
  });
});

describe('createOutageWaiter', () => {
  const never = new AbortController().signal;

  it('resolves true once the service answers again, with one probe loop for every row waiting', async () => {
    let probes = 0;
    let up = false;
    const waiter = createOutageWaiter({ probes: { images: async () => (probes++, up ? undefined : Promise.reject(new Error('down'))), database: async () => {}, queue: async () => {} }, firstDelayMs: 20, maxDelayMs: 40 });
    const rows = Array.from({ length: 20 }, () => waiter.untilBack('images', Date.now() + 5_000, never));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const whileDown = probes;
    up = true;
    expect(await Promise.all(rows)).toEqual(Array(20).fill(true));
    // Twenty rows, yet about one probe per 40 ms: not twenty.
    expect(whileDown).toBeGreaterThan(2);
    expect(whileDown).toBeLessThan(15);
  });

  it('false at its deadline, false when the job is aborted (shutdown), and a later wait starts a loop of its own', async () => {
    const waiter = createOutageWaiter({ probes: { images: () => Promise.reject(new Error('down')), database: () => new Promise(() => {}), queue: async () => {} }, firstDelayMs: 10, maxDelayMs: 20, probeTimeoutMs: 50 });
    const started = Date.now();
    expect(await waiter.untilBack('images', Date.now() + 150, never)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
    // A probe that hangs counts as down (its own timeout).
    expect(await waiter.untilBack('database', Date.now() + 200, never)).toBe(false);
    const shutdown = new AbortController();
    const waiting = waiter.untilBack('images', Date.now() + 60_000, shutdown.signal);
    setTimeout(() => shutdown.abort(), 50);
    expect(await waiting).toBe(false);
    expect(await waiter.untilBack('queue', Date.now() + 1_000, never)).toBe(true);
  });
});
