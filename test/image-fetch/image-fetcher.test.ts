import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { AppError } from '../../src/contracts/errors.ts';
import {
  createImageFetcher,
  imageFetcherOptions,
  systemResolver,
  type ImageFetcherOptions,
  type ResolveHost,
} from '../../src/infra/image-fetch/index.ts';
import { ACCEPTED_IMAGE_TYPES } from '../../src/infra/image-storage/index.ts';
import { startImageServer, type ImageServer } from './image-server.ts';

let server: ImageServer;
let server6: ImageServer;

beforeAll(async () => {
  [server, server6] = await Promise.all([startImageServer('127.0.0.1'), startImageServer('::1')]);
});
afterAll(async () => {
  await Promise.all([server.close(), server6.close()]);
});

/** Names the tests need, resolved without the network; everything else goes to the system resolver. */
const testNames: Record<string, string[]> = {
  'images.example.test': ['127.0.0.1'],
  'internal.example.test': ['10.0.0.5'],
  'metadata.example.test': ['169.254.169.254'],
  'mixed.example.test': ['93.184.216.34', '10.0.0.5'],
  'mapped.example.test': ['::ffff:192.168.1.10'],
  'ula.example.test': ['fd00::5'],
};

function testResolver(calls: string[] = []): ResolveHost {
  return async (hostname) => {
    calls.push(hostname);
    const answers = testNames[hostname];
    if (answers) return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    if (hostname.endsWith('.example.test')) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return systemResolver(hostname);
  };
}

function fetcher(overrides: Partial<ImageFetcherOptions> = {}) {
  return createImageFetcher({ timeoutMs: 2_000, maxBytes: 1024 * 1024, concurrency: 50, allowLoopback: true, resolve: testResolver(), ...overrides });
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => new Error('expected a refusal, got an image'),
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw error;
  return error;
}

describe('with ALLOW_LOOPBACK_IMAGE_URLS off (production)', () => {
  const strict = () => fetcher({ allowLoopback: false });

  // Every form an address can take in a URL; none of them may be fetched.
  const hostile: Array<[url: string, code: string]> = [
    ['http://127.0.0.1/card.jpg', 'image_url_loopback'],
    ['http://127.1/', 'image_url_loopback'],
    ['http://2130706433/', 'image_url_loopback'],
    ['http://0x7f000001/', 'image_url_loopback'],
    ['http://0x7f.1/', 'image_url_loopback'],
    ['http://017700000001/', 'image_url_loopback'],
    ['http://0177.0.0.01/', 'image_url_loopback'],
    ['http://127.0.0.1./', 'image_url_loopback'],
    ['http://%31%32%37.0.0.1/', 'image_url_loopback'],
    ['http://[::1]/', 'image_url_loopback'],
    ['https://[::1]:443/', 'image_url_loopback'],
    ['http://[::ffff:127.0.0.1]/', 'image_url_loopback'],
    ['http://[0:0:0:0:0:ffff:7f00:1]/', 'image_url_loopback'],
    ['http://[64:ff9b::127.0.0.1]/', 'image_url_loopback'],
    ['http://localhost/', 'image_url_loopback'],
    ['http://LOCALHOST./', 'image_url_loopback'],
    ['http://user:password@127.0.0.1/', 'image_url_loopback'],
    ['http://169.254.169.254/latest/meta-data/', 'image_url_link_local'],
    ['http://[::ffff:169.254.169.254]/', 'image_url_link_local'],
    ['http://[::ffff:a9fe:a9fe]/', 'image_url_link_local'],
    ['http://2852039166/', 'image_url_link_local'],
    ['http://[fe80::1]/', 'image_url_link_local'],
    ['http://10.0.0.5/', 'image_url_private_address'],
    ['http://10.255.255.255/', 'image_url_private_address'],
    ['http://172.16.0.1/', 'image_url_private_address'],
    ['http://172.31.255.255/', 'image_url_private_address'],
    ['http://192.168.1.1/', 'image_url_private_address'],
    ['http://100.64.0.1/', 'image_url_private_address'],
    ['http://[fd00::2]/', 'image_url_private_address'],
    ['http://[fc00::1]/', 'image_url_private_address'],
    ['http://[::ffff:10.0.0.5]/', 'image_url_private_address'],
    ['http://[2002:c0a8:101::1]/', 'image_url_private_address'],
    ['http://internal.example.test/card.jpg', 'image_url_private_address'],
    ['http://mixed.example.test/card.jpg', 'image_url_private_address'],
    ['http://mapped.example.test/card.jpg', 'image_url_private_address'],
    ['http://ula.example.test/card.jpg', 'image_url_private_address'],
    ['http://metadata.example.test/', 'image_url_link_local'],
    ['http://0/', 'image_url_reserved_address'],
    ['http://0.0.0.0/', 'image_url_reserved_address'],
    ['http://[::]/', 'image_url_reserved_address'],
    ['http://[::127.0.0.1]/', 'image_url_reserved_address'],
    ['http://224.0.0.1/', 'image_url_reserved_address'],
    ['http://255.255.255.255/', 'image_url_reserved_address'],
    ['http://[ff02::1]/', 'image_url_reserved_address'],
    ['http://[fec0::1]/', 'image_url_reserved_address'],
    ['http://[2001:db8::1]/', 'image_url_reserved_address'],
    ['http://192.0.2.1/', 'image_url_reserved_address'],
    ['file:///etc/passwd', 'image_url_scheme_refused'],
    ['file://127.0.0.1/etc/passwd', 'image_url_scheme_refused'],
    ['data:image/png;base64,iVBORw0KGgo=', 'image_url_scheme_refused'],
    ['ftp://example.com/card.jpg', 'image_url_scheme_refused'],
    ['gopher://127.0.0.1:6379/_INFO', 'image_url_scheme_refused'],
    ['javascript:alert(1)', 'image_url_scheme_refused'],
    ['ws://example.com/', 'image_url_scheme_refused'],
    ['not a url', 'image_url_invalid'],
    ['http://', 'image_url_invalid'],
    ['http://[fe80::1%25eth0]/', 'image_url_invalid'],
    ['http://nowhere.example.test/card.jpg', 'image_url_unresolvable'],
  ];

  it.each(hostile)('refuses %s with %s', async (url, code) => {
    const error = await refusal(strict().fetchImage(url));
    expect(error.code).toBe(code);
    expect(error.kind).toBe(code === 'image_url_unresolvable' ? 'unprocessable' : 'invalid');
    expect(error.message).not.toMatch(/10\.0\.0\.5|169\.254|fd00|192\.168/); // never tells where a name points
  });

  it('refuses the test server itself, by IPv4, IPv6 and name', async () => {
    for (const url of [`${server.origin}/card.jpg`, `${server6.origin}/card.jpg`, `http://localhost:${server.port}/card.jpg`]) {
      expect((await refusal(strict().fetchImage(url))).code).toBe('image_url_loopback');
    }
  });

  it('says plainly why', async () => {
    expect((await refusal(strict().fetchImage('http://10.0.0.5/'))).message).toBe('That URL points to a private network address and cannot be fetched.');
    expect((await refusal(strict().fetchImage('http://169.254.169.254/'))).message).toBe(
      'That URL points to a link-local address (such as a cloud metadata service) and cannot be fetched.',
    );
    expect((await refusal(strict().fetchImage('file:///etc/passwd'))).message).toBe(
      'That URL is a file: address. Only http:// and https:// image URLs can be fetched.',
    );
  });
});

describe('with ALLOW_LOOPBACK_IMAGE_URLS on (tests)', () => {
  it.each(ACCEPTED_IMAGE_TYPES)('downloads a %s image over IPv4', async (type) => {
    const path = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'image/gif': 'gif', 'image/avif': 'avif', 'image/heic': 'heic' }[type];
    const image = await fetcher().fetchImage(`${server.origin}/card.${path}`);
    expect(image.contentType).toBe(type);
    expect(image.bytes.equals(server.images.get(type)!)).toBe(true);
    expect(image.redirects).toBe(0);
  });

  it('downloads over IPv6 loopback and by the name localhost', async () => {
    expect((await fetcher().fetchImage(`${server6.origin}/card.png`)).contentType).toBe('image/png');
    expect((await fetcher().fetchImage(`http://localhost:${server.port}/card.jpg`)).contentType).toBe('image/jpeg');
  });

  it('resolves a name once and connects to exactly the address it checked, keeping the name as Host', async () => {
    const calls: string[] = [];
    const image = await fetcher({ resolve: testResolver(calls) }).fetchImage(`http://images.example.test:${server.port}/card.jpg`);
    expect(image.contentType).toBe('image/jpeg');
    expect(calls).toEqual(['images.example.test']);
    expect(server.hosts.at(-1)).toBe(`images.example.test:${server.port}`);
  });

  it('keeps private, link-local and reserved addresses closed', async () => {
    for (const [url, code] of [
      ['http://10.0.0.5/card.jpg', 'image_url_private_address'],
      ['http://192.168.0.1/', 'image_url_private_address'],
      ['http://169.254.169.254/latest/meta-data/', 'image_url_link_local'],
      ['http://internal.example.test/', 'image_url_private_address'],
      ['http://0.0.0.0/', 'image_url_reserved_address'],
      ['file:///etc/passwd', 'image_url_scheme_refused'],
    ] as const) {
      expect((await refusal(fetcher().fetchImage(url))).code).toBe(code);
    }
  });

  it('reads its settings from the configuration', () => {
    expect(imageFetcherOptions(loadConfig({}))).toEqual({ timeoutMs: 2_000, maxBytes: 15 * 1024 * 1024, concurrency: 50, allowLoopback: false });
    expect(imageFetcherOptions(loadConfig({ ALLOW_LOOPBACK_IMAGE_URLS: 'true', IMAGE_FETCH_TIMEOUT_MS: '500' }))).toMatchObject({
      timeoutMs: 500,
      allowLoopback: true,
    });
  });
});

describe('redirects', () => {
  const redirectTo = (location: string, status = 302) => `${server.origin}/redirect?status=${status}&to=${encodeURIComponent(location)}`;

  it('follows up to three, relative or absolute, with any redirect status', async () => {
    const image = await fetcher().fetchImage(`${server.origin}/hops?n=3`);
    expect(image.redirects).toBe(3);
    expect(image.url).toBe(`${server.origin}/hops?n=0`);
    for (const status of [301, 302, 303, 307, 308]) {
      expect((await fetcher().fetchImage(redirectTo(`${server6.origin}/card.webp`, status))).contentType).toBe('image/webp');
    }
  });

  it('refuses a fourth', async () => {
    const error = await refusal(fetcher().fetchImage(`${server.origin}/hops?n=4`));
    expect(error.code).toBe('image_url_too_many_redirects');
  });

  // Loopback is open here (the first hop is our loopback server), so these prove each hop is checked again.
  const hostileTargets: Array<[location: string, code: string]> = [
    ['http://10.0.0.5/card.jpg', 'image_url_private_address'],
    ['http://169.254.169.254/latest/meta-data/iam/', 'image_url_link_local'],
    ['http://[::ffff:169.254.169.254]/', 'image_url_link_local'],
    ['http://2852039166/', 'image_url_link_local'],
    ['http://internal.example.test/card.jpg', 'image_url_private_address'],
    ['http://metadata.example.test/', 'image_url_link_local'],
    ['http://[fd00::2]/', 'image_url_private_address'],
    ['http://0/', 'image_url_reserved_address'],
    ['file:///etc/passwd', 'image_url_scheme_refused'],
    ['data:image/png;base64,iVBORw0KGgo=', 'image_url_scheme_refused'],
    ['ftp://example.com/card.jpg', 'image_url_scheme_refused'],
    ['http://nowhere.example.test/', 'image_url_unresolvable'],
    ['http://[::1', 'image_url_bad_redirect'],
  ];

  it.each(hostileTargets)('refuses a redirect to %s with %s', async (location, code) => {
    const error = await refusal(fetcher().fetchImage(redirectTo(location)));
    expect(error.code).toBe(code);
    if (code.startsWith('image_url_') && code !== 'image_url_unresolvable' && code !== 'image_url_bad_redirect') {
      expect(error.message).toMatch(/^That (image )?URL redirects to /);
    }
  });

  it('refuses a redirect hidden behind another redirect', async () => {
    const error = await refusal(fetcher().fetchImage(redirectTo(redirectTo('http://169.254.169.254/'))));
    expect(error.code).toBe('image_url_link_local');
  });

  it('refuses a redirect without a Location', async () => {
    expect((await refusal(fetcher().fetchImage(`${server.origin}/no-location`))).code).toBe('image_url_bad_redirect');
  });
});

describe('what comes back', () => {
  const cases: Array<[path: string, code: string, kind: string]> = [
    ['/html', 'image_download_not_an_image', 'unsupported'],
    ['/svg', 'image_download_not_an_image', 'unsupported'],
    ['/octet-stream', 'image_download_not_an_image', 'unsupported'],
    ['/no-content-type', 'image_download_not_an_image', 'unsupported'],
    ['/lying-png', 'image_download_not_an_image', 'unsupported'],
    ['/empty', 'image_download_not_an_image', 'unsupported'],
    ['/missing', 'image_download_http_error', 'unprocessable'],
    ['/cut-off', 'image_download_failed', 'unprocessable'],
  ];

  it.each(cases)('%s is refused with %s', async (path, code, kind) => {
    const error = await refusal(fetcher().fetchImage(`${server.origin}${path}`));
    expect(error).toMatchObject({ code, kind });
  });

  it('names the wrong content type in the message', async () => {
    const error = await refusal(fetcher().fetchImage(`${server.origin}/html`));
    expect(error.message).toBe(
      'That URL does not point to an image (it answered with text/html). Image URLs must point directly to a JPG, PNG, WEBP, HEIC, GIF or AVIF file.',
    );
    expect((await refusal(fetcher().fetchImage(`${server.origin}/svg`))).message).toContain('image/svg+xml');
  });

  it('accepts image/jpg as image/jpeg', async () => {
    expect((await fetcher().fetchImage(`${server.origin}/jpg-alias`)).contentType).toBe('image/jpeg');
  });

  it('refuses an unreachable server', async () => {
    const closed = await startImageServer();
    await closed.close();
    expect((await refusal(fetcher().fetchImage(`${closed.origin}/card.jpg`))).code).toBe('image_download_failed');
  });
});

describe('limits', () => {
  it('refuses a body declared larger than the cap without reading it', async () => {
    const error = await refusal(fetcher({ maxBytes: 10_000 }).fetchImage(`${server.origin}/declared-huge`));
    expect(error).toMatchObject({ kind: 'too_large', code: 'image_download_too_large', message: 'The image is larger than 10 KB.' });
  });

  it('stops reading an endless body at the cap and hangs up', async () => {
    const before = server.abandonedStreams;
    const started = performance.now();
    const error = await refusal(fetcher({ maxBytes: 1024 * 1024 }).fetchImage(`${server.origin}/endless`));
    expect(error).toMatchObject({ code: 'image_download_too_large', message: 'The image is larger than 1 MB.' });
    expect(performance.now() - started).toBeLessThan(1_500);
    await expect.poll(() => server.abandonedStreams).toBe(before + 1);
  });

  it('gives up on a server that never answers', async () => {
    const started = performance.now();
    const error = await refusal(fetcher({ timeoutMs: 300 }).fetchImage(`${server.origin}/slow-headers`));
    expect(error).toMatchObject({ code: 'image_download_timeout', kind: 'unprocessable', message: 'The image took longer than 0.3 s to download.' });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('gives up on a body that trickles in, however alive the connection is', async () => {
    const error = await refusal(fetcher({ timeoutMs: 400 }).fetchImage(`${server.origin}/slow-body`));
    expect(error.code).toBe('image_download_timeout');
  });

  it('gives up on DNS that never answers', async () => {
    const error = await refusal(fetcher({ timeoutMs: 200, resolve: () => new Promise(() => {}) }).fetchImage('http://hanging.example.test/'));
    expect(error.code).toBe('image_download_timeout');
  });

  it('runs at most `concurrency` downloads at once and finishes them all', async () => {
    server.maxInFlight = 0;
    const limited = fetcher({ concurrency: 2 });
    const images = await Promise.all(Array.from({ length: 6 }, () => limited.fetchImage(`${server.origin}/held`)));
    expect(images).toHaveLength(6);
    expect(server.maxInFlight).toBe(2);
  });

  it('does not count waiting for a slot against the timeout', async () => {
    // Eight downloads of ~60 ms one after another: the last waits far longer than 300 ms for its turn.
    const limited = fetcher({ concurrency: 1, timeoutMs: 300 });
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => limited.fetchImage(`${server.origin}/held`)));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
  });
});
