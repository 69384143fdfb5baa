import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.ts';
import { createImageFetcher, imageFetcherOptions, systemResolver, type ResolveHost } from '../../src/infra/image-fetch/index.ts';
import { multipartBody, ORIGIN, HOST, samplePhoto, startCardsApp, startPhotoServer, type CardsHarness } from './cards-harness.ts';

// Image URLs through POST /api/grade-card with ALLOW_LOOPBACK_IMAGE_URLS off, as in production: nothing that
// leads inside our network is fetched, directly or by a redirect, and the refusal says why. The fetch happens
// before any database work, so one engine is enough.

/** Names the tests need, without the network. cdn.example.test is "public" and routed to the loopback photo server. */
const PUBLIC_ADDRESS = '93.184.216.34';
const testNames: Record<string, string[]> = {
  'cdn.example.test': [PUBLIC_ADDRESS],
  'intranet.example.test': ['10.0.0.7'],
  'metadata.example.test': ['169.254.169.254'],
};
const resolve: ResolveHost = async (hostname) => {
  const answers = testNames[hostname];
  if (answers) return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  return systemResolver(hostname);
};

describe('image URLs with loopback closed', () => {
  let h: CardsHarness;
  let photos: Awaited<ReturnType<typeof startPhotoServer>>;
  /** The same app with a fetcher that resolves the test names and routes the public one to the photo server. */
  let routed: FastifyInstance;

  beforeAll(async () => {
    // Many hostile URLs from one guest: the grading limit is not what this suite tests.
    h = await startCardsApp('pglite', { ALLOW_LOOPBACK_IMAGE_URLS: 'false', GRADE_LIMIT_GUEST_PER_MINUTE: '1000' });
    photos = await startPhotoServer({ 'card.jpg': await samplePhoto(2) });
    const imageFetcher = createImageFetcher({
      ...imageFetcherOptions(h.config),
      resolve,
      routeTo: (address) => (address.address === PUBLIC_ADDRESS ? { address: '127.0.0.1', family: 4 } : address),
    });
    expect(h.config.ALLOW_LOOPBACK_IMAGE_URLS).toBe(false);
    routed = await buildApp({ ...h.runtime, imageFetcher });
  });
  afterAll(async () => {
    await routed?.close();
    await photos?.close();
    await h?.close();
  });

  async function gradeUrl(app: FastifyInstance, url: string) {
    const { body, contentType } = await multipartBody([['frontImageUrl', url]]);
    return app.inject({ method: 'POST', url: '/api/grade-card', headers: { host: HOST, origin: ORIGIN, 'content-type': contentType }, payload: body });
  }

  const cdn = () => `http://cdn.example.test:${photos.port}`;

  it('grades from a public URL (the routing the refusals below rely on works)', async () => {
    const response = await gradeUrl(routed, `${cdn()}/card.jpg`);
    expect(response.statusCode).toBe(200);
    expect(response.json().grades.centering).toBeLessThan(9);
  });

  const direct = (): Array<[url: string, code: string, message: RegExp]> => [
    [`${photos.origin}/card.jpg`, 'image_url_loopback', /^That URL points to this server itself \(a loopback address\)/],
    ['http://127.0.0.1/', 'image_url_loopback', /loopback/],
    [`http://[::1]:${photos.port}/card.jpg`, 'image_url_loopback', /loopback/],
    [`http://localhost:${photos.port}/card.jpg`, 'image_url_loopback', /loopback/],
    ['http://169.254.169.254/latest/meta-data/iam/security-credentials/', 'image_url_link_local', /^That URL points to a link-local address \(such as a cloud metadata service\)/],
    ['http://10.0.0.5/card.jpg', 'image_url_private_address', /^That URL points to a private network address/],
    ['http://10.255.255.254:8080/card.jpg', 'image_url_private_address', /private/],
    ['http://intranet.example.test/card.jpg', 'image_url_private_address', /private/],
    ['http://metadata.example.test/latest/meta-data/', 'image_url_link_local', /link-local/],
    ['file:///etc/passwd', 'image_url_scheme_refused', /^That URL is a file: address\. Only http:\/\/ and https:\/\/ image URLs can be fetched\.$/],
  ];

  it('refuses every URL that leads inside, through the route, with a clear 400', async () => {
    const before = await h.database.db.selectFrom('es_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    for (const [url, code, message] of direct()) {
      // Both apps: the runtime's own fetcher (setting off) and the one that knows the test names.
      for (const app of [h.app, routed]) {
        if (app === h.app && url.includes('.example.test')) continue;
        const response = await gradeUrl(app, url);
        expect({ url, status: response.statusCode, code: response.json().code }).toEqual({ url, status: 400, code });
        expect(response.json().error).toMatch(message);
      }
    }
    const after = await h.database.db.selectFrom('es_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('refuses a redirect to any of them, through the route', async () => {
    for (const [url, code] of direct()) {
      const response = await gradeUrl(routed, `${cdn()}/redirect?to=${encodeURIComponent(url)}`);
      expect({ url, status: response.statusCode, code: response.json().code }).toEqual({ url, status: 400, code });
      expect(response.json().error).toMatch(/^That (image )?URL redirects to /);
    }
  });

  it('refuses a back image URL that leads inside, saying it is the back', async () => {
    const { body, contentType } = await multipartBody([
      ['frontImageUrl', `${cdn()}/card.jpg`],
      ['backImageUrl', `${cdn()}/redirect?to=${encodeURIComponent('http://[::1]/')}`],
    ]);
    const response = await routed.inject({ method: 'POST', url: '/api/grade-card', headers: { host: HOST, origin: ORIGIN, 'content-type': contentType }, payload: body });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'Back image URL: That URL redirects to this server itself (a loopback address) and cannot be fetched.', code: 'image_url_loopback' });
  });
});
