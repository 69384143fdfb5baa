import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.ts';
import { createS3ImageStore } from '../../src/infra/image-storage/index.ts';
import { sampleImage } from '../image-storage/sample-images.ts';
import { samplePhoto, startCardsApp, type CardsHarness } from './cards-harness.ts';

// GET /api/images/{sha256}: stored photos and annotated pictures, cached for ever, never with a cookie.
// The database plays no part here, so one engine is enough.

describe('images', () => {
  let h: CardsHarness;
  beforeAll(async () => {
    h = await startCardsApp('pglite');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('serves a stored image with its type and a year-long immutable cache, without a session cookie', async () => {
    for (const bytes of [await samplePhoto(1), await sampleImage('image/png'), await sampleImage('image/webp')]) {
      const stored = await h.runtime.imageStore.put(bytes);
      const response = await h.app.inject({ url: `/api/images/${stored.hash}` });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe(stored.contentType);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers.etag).toBe(`"${stored.hash}"`);
      expect(response.headers['set-cookie']).toBeUndefined();
      expect(response.rawPayload.equals(Buffer.from(bytes))).toBe(true);

      const revalidated = await h.app.inject({ url: `/api/images/${stored.hash}`, headers: { 'if-none-match': `"${stored.hash}"` } });
      expect(revalidated.statusCode).toBe(304);
      expect(revalidated.body).toBe('');
    }
  });

  it('serves the pictures of a graded card', async () => {
    const card = (await h.browser().grade([['frontImage', { bytes: await samplePhoto(3) }]])).json();
    for (const url of [card.imageUrl, card.annotatedImageUrl]) {
      const response = await h.app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it('answers 404 for an unknown hash and 400 for a malformed one', async () => {
    const unknown = await h.app.inject({ url: `/api/images/${'0'.repeat(64)}` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'Image not found', code: 'image_not_found' });
    expect(unknown.headers['cache-control'] ?? '').not.toContain('immutable');
    for (const hash of ['abc', 'A'.repeat(64), `${'0'.repeat(63)}g`, '..%2F..%2Fetc%2Fpasswd', `${'0'.repeat(64)}.jpg`]) {
      const response = await h.app.inject({ url: `/api/images/${hash}` });
      expect({ hash, status: response.statusCode, code: response.json().code }).toEqual({ hash, status: 400, code: 'image_hash_invalid' });
    }
  });

  it('answers byte ranges with 206 and the whole size, past the end with 416, and the whole image otherwise', async () => {
    const bytes = await samplePhoto(4);
    const { hash } = await h.runtime.imageStore.put(bytes);
    const url = `/api/images/${hash}`;
    const size = bytes.length;
    const cases: [range: string, start: number, end: number][] = [
      ['bytes=0-0', 0, 0],
      ['bytes=10-99', 10, 99],
      ['bytes=100-', 100, size - 1],
      ['bytes=-50', size - 50, size - 1],
      [`bytes=${size - 10}-${size + 1000}`, size - 10, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const response = await h.app.inject({ url, headers: { range } });
      expect({ range, status: response.statusCode }).toEqual({ range, status: 206 });
      expect(response.headers['content-range']).toBe(`bytes ${start}-${end}/${size}`);
      expect(response.headers['content-type']).toBe('image/jpeg');
      expect(response.headers.etag).toBe(`"${hash}"`);
      expect(response.rawPayload.equals(Buffer.from(bytes).subarray(start, end + 1))).toBe(true);
    }
    const past = await h.app.inject({ url, headers: { range: `bytes=${size}-` } });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${size}`);
    expect(past.json()).toMatchObject({ code: 'range_not_satisfiable' });
    // Several ranges, another unit, or an If-Range for another version: the whole image.
    for (const headers of [{ range: 'bytes=0-1,5-9' }, { range: 'items=0-1' }, { range: 'bytes=0-9', 'if-range': '"other"' }]) {
      const response = await h.app.inject({ url, headers });
      expect(response.statusCode).toBe(200);
      expect(response.headers['accept-ranges']).toBe('bytes');
      expect(response.rawPayload.length).toBe(size);
    }
    const listed = await h.app.inject({ url, headers: { 'if-none-match': `"abc", W/"${hash}"` } });
    expect(listed.statusCode).toBe(304);
    const unknown = await h.app.inject({ url: `/api/images/${'1'.repeat(64)}`, headers: { range: 'bytes=0-9' } });
    expect(unknown.statusCode).toBe(404);
  });

  it('answers 503 with a plain message when the image store does not answer', async () => {
    const deadStore = createS3ImageStore({ bucket: 'images', prefix: '', endpoint: 'http://127.0.0.1:1', region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'x', secretAccessKey: 'y' }, maxAttempts: 1 });
    const app = await buildApp({ ...h.runtime, imageStore: deadStore });
    try {
      for (const headers of [{}, { range: 'bytes=0-9' }]) {
        const response = await app.inject({ url: `/api/images/${'2'.repeat(64)}`, headers });
        expect(response.statusCode).toBe(503);
        expect(response.json()).toEqual({ error: 'Photo storage is not answering right now. Please try again in a minute.', code: 'image_store_unavailable' });
        expect(response.headers['cache-control'] ?? '').not.toContain('immutable');
      }
    } finally {
      await app.close();
      deadStore.close?.();
    }
  });
});
