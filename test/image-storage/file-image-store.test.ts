import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/contracts/errors.ts';
import {
  ACCEPTED_IMAGE_TYPES,
  createFileImageStore,
  normaliseMediaType,
  sniffImageType,
  type ImageStore,
} from '../../src/infra/image-storage/index.ts';
import { sampleImage } from './sample-images.ts';

let rootDir: string;
let store: ImageStore;

beforeAll(async () => {
  rootDir = await mkdtemp(path.join(os.tmpdir(), 'image-store-'));
  store = createFileImageStore(rootDir);
});
afterAll(async () => {
  await rm(rootDir, { recursive: true, force: true });
});

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe('image types from magic bytes', () => {
  it.each(ACCEPTED_IMAGE_TYPES)('recognises %s', async (type) => {
    expect(sniffImageType(await sampleImage(type))).toBe(type);
  });

  it('refuses what is not an image we decode', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    const tiff = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } }).tiff().toBuffer();
    const mp4Header = Buffer.from('0000001866747970697336360000000069736f6d', 'hex'); // ftyp box, brand isom: a video
    for (const bytes of [Buffer.alloc(0), Buffer.from('hello'), Buffer.from('<html></html>'), svg, tiff, mp4Header, Buffer.from([0xff, 0xd8])]) {
      expect(sniffImageType(bytes)).toBeNull();
    }
  });

  it('matches what sharp can decode, AVIF, and leaves HEIC to libheif (src/vision/heic.ts)', () => {
    expect(sharp.format.heif.input.fileSuffix).toContain('.avif');
    expect(sharp.format.heif.input.fileSuffix).not.toContain('.heic');
    expect(sniffImageType(Buffer.from('0000001866747970686569630000000068656963', 'hex'))).toBe('image/heic'); // ftyp box, brand heic
  });

  it('normalises Content-Type headers', () => {
    expect(normaliseMediaType('Image/JPEG; charset=binary')).toBe('image/jpeg');
    expect(normaliseMediaType('image/jpg')).toBe('image/jpeg');
    expect(normaliseMediaType('image/heif')).toBe('image/heic');
    expect(normaliseMediaType('image/svg+xml')).toBe('image/svg+xml');
    expect(normaliseMediaType(undefined)).toBe('');
  });
});

describe('file image store', () => {
  it('stores by SHA-256 in sharded directories and reads the image back', async () => {
    const bytes = await sampleImage('image/png', 1);
    const hash = createHash('sha256').update(bytes).digest('hex');

    const stored = await store.put(bytes);

    expect(stored).toEqual({ hash, contentType: 'image/png', size: bytes.length, path: path.join(rootDir, hash.slice(0, 2), hash.slice(2, 4), hash), created: true });
    expect(await readFile(stored.path)).toEqual(bytes);
    expect(await store.has(hash)).toBe(true);
    const read = await store.get(hash);
    expect(read?.contentType).toBe('image/png');
    expect(read?.bytes.equals(bytes)).toBe(true);
  });

  it('stores the same bytes once', async () => {
    const bytes = await sampleImage('image/jpeg', 2);
    const first = await store.put(bytes);
    const second = await store.put(bytes);
    expect(first.created).toBe(true);
    expect(second.created).toBe(false);
    expect(second.hash).toBe(first.hash);
    const files = await filesUnder(path.dirname(first.path));
    expect(files).toEqual([first.hash]);
  });

  it('survives concurrent writers of the same bytes and leaves no temporary files', async () => {
    const bytes = await sampleImage('image/webp', 3);
    const results = await Promise.all(Array.from({ length: 8 }, () => store.put(bytes)));
    expect(new Set(results.map((r) => r.hash)).size).toBe(1);
    expect(results.some((r) => r.created)).toBe(true);
    const files = await filesUnder(rootDir);
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect((await store.get(results[0]!.hash))?.bytes.equals(bytes)).toBe(true);
  });

  it('refuses bytes that are not an accepted image, writing nothing', async () => {
    const before = await filesUnder(rootDir);
    const error = await store.put(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ kind: 'unsupported', code: 'image_type_unsupported' });
    expect(await filesUnder(rootDir)).toEqual(before);
  });

  it('answers null for unknown hashes and never turns a non-hash into a path', async () => {
    const missing = 'a'.repeat(64);
    expect(await store.get(missing)).toBeNull();
    expect(await store.has(missing)).toBe(false);
    await writeFile(path.join(rootDir, 'secret.txt'), 'not for you');
    for (const hostile of ['../secret.txt', '..%2Fsecret.txt', 'secret.txt', 'A'.repeat(64), `${'a'.repeat(63)}/`, '']) {
      expect(await store.get(hostile)).toBeNull();
      expect(await store.has(hostile)).toBe(false);
    }
  });
});
