import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
