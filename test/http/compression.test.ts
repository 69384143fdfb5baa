import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../web/precompress.ts';
import { samplePhoto, startCardsApp, type CardsHarness } from './cards-harness.ts';

// What goes over the wire: the web app's files as the build compressed them (brotli or gzip, whichever the browser
// takes), JSON answers over 1 KB compressed on the fly, small answers and pictures as they are.

const decode = (encoding: string | undefined, bytes: Buffer): Buffer =>
  encoding === 'br' ? brotliDecompressSync(bytes) : encoding === 'gzip' ? gunzipSync(bytes) : bytes;

describe('compression', () => {
  let h: CardsHarness;
  let webDist: string;
  // Text that compresses the way code does: repeated words, some variety.
  const script = Array.from({ length: 4000 }, (_, i) => `export const value${i} = ${i % 7} * Math.max(${i}, 1);`).join('\n');

  beforeAll(async () => {
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
    fs.mkdirSync(path.join(webDist, 'assets'));
    fs.writeFileSync(path.join(webDist, 'index.html'), `<!doctype html><title>Card Grader</title><div id="root"></div>${'<!-- padding -->'.repeat(100)}`);
    fs.writeFileSync(path.join(webDist, 'assets', 'app-abc123.js'), script);
    fs.writeFileSync(path.join(webDist, 'assets', 'tiny-abc123.js'), 'export {};');
    h = await startCardsApp('pglite', { WEB_DIST_DIR: webDist });
  });
  afterAll(async () => {
    await h?.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('the build writes a brotli and a gzip copy of every text file over 1 KB, and each unpacks to the file', async () => {
    const totals = await precompressDir(webDist);
    expect(totals.files).toBe(2);
    for (const name of ['index.html', 'assets/app-abc123.js']) {
      const raw = fs.readFileSync(path.join(webDist, name));
      expect(brotliDecompressSync(fs.readFileSync(path.join(webDist, `${name}.br`))).equals(raw)).toBe(true);
      expect(gunzipSync(fs.readFileSync(path.join(webDist, `${name}.gz`))).equals(raw)).toBe(true);
    }
    expect(fs.existsSync(path.join(webDist, 'assets/tiny-abc123.js.br'))).toBe(false);
  });

  it('sends a built file compressed as the browser asks, and as it is to a client that takes neither', async () => {
    for (const [accept, encoding] of [['gzip, deflate, br, zstd', 'br'], ['gzip', 'gzip'], ['', undefined], ['identity', undefined]] as const) {
      const response = await h.app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': accept } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers['vary']).toMatch(/accept-encoding/i);
      expect(response.headers['content-type']).toMatch(/javascript/);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(decode(encoding, response.rawPayload).toString()).toBe(script);
      if (encoding === 'br') expect(response.rawPayload.length).toBeLessThan(script.length / 5);
    }
    // A client route gets index.html, compressed too.
    const page = await h.app.inject({ url: '/collection', headers: { accept: 'text/html', 'accept-encoding': 'br' } });
    expect(page.headers['content-encoding']).toBe('br');
    expect(decode('br', page.rawPayload).toString()).toContain('<div id="root"></div>');
  });

  it('compresses JSON over 1 KB, leaves small answers and pictures alone, and never compresses twice', async () => {
    const browser = h.browser();
    const photo = await samplePhoto(1);
    const graded = await browser.grade([['frontImage', { bytes: photo }]]);
    expect(graded.statusCode).toBe(200);
    const { id, imageUrl } = graded.json() as { id: string; imageUrl: string };

    const asked = (url: string, acceptEncoding: string) => browser.send({ method: 'GET', url, headers: { 'accept-encoding': acceptEncoding } });
    const card = await asked(`/api/card/${id}`, 'br, gzip');
    expect(card.headers['content-encoding']).toBe('br');
    const plain = await asked(`/api/card/${id}`, '');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    expect(JSON.parse(decode('br', card.rawPayload).toString())).toEqual(plain.json());
    expect(card.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);

    const small = await asked('/api/leaderboard', 'br, gzip');
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();

    // The collection is stored gzipped and sent so: once, not compressed again on top.
    const mine = await asked('/api/my-cards', 'br, gzip');
    expect(mine.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(mine.rawPayload).toString())[0].id).toBe(id);

    const picture = await asked(imageUrl, 'br, gzip');
    expect(picture.headers['content-encoding']).toBeUndefined();
    expect(picture.rawPayload.equals(photo)).toBe(true);
  });
});
