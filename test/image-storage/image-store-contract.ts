import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/contracts/errors.ts';
import { ACCEPTED_IMAGE_TYPES, type ImageStore } from '../../src/infra/image-storage/index.ts';
import { sampleImage } from './sample-images.ts';

// THE behaviour every ImageStore adapter has, run against each (files, and S3 on a loopback server):
// content-addressed puts that write nothing when the bytes are there, reads whole or by range, refusals.

export interface ContractSubject {
  store: ImageStore;
  /** Changes whenever the adapter writes the image with this hash (an mtime and inode, a write count). */
  writeMark(hash: string): Promise<string>;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function imageStoreContract(name: string, subject: () => ContractSubject): void {
  describe(`${name} image store (shared contract)`, () => {
    it('stores every accepted type by its SHA-256 and reads it back with its type', async () => {
      const { store } = subject();
      for (const [i, type] of ACCEPTED_IMAGE_TYPES.entries()) {
        const bytes = await sampleImage(type, 40 + i);
        const stored = await store.put(bytes);
        expect(stored).toMatchObject({ hash: sha256(bytes), contentType: type, size: bytes.length, created: true });
        expect(await store.has(stored.hash)).toBe(true);
        expect(await store.stat(stored.hash)).toMatchObject({ hash: stored.hash, contentType: type, size: bytes.length });
        const read = await store.get(stored.hash);
        expect(read?.contentType).toBe(type);
        expect(read?.bytes.equals(bytes)).toBe(true);
      }
    });

    it('writes nothing when the bytes are already there', async () => {
      const { store, writeMark } = subject();
      const bytes = await sampleImage('image/jpeg', 50);
      const first = await store.put(bytes);
      const mark = await writeMark(first.hash);
      const again = await store.put(Buffer.from(bytes));
      expect(first.created).toBe(true);
      expect(again).toEqual({ ...first, created: false });
      expect(await writeMark(first.hash)).toBe(mark);
    });

    it('takes concurrent puts of the same new bytes, leaving one whole image', async () => {
      const { store } = subject();
      const bytes = await sampleImage('image/webp', 51);
      const results = await Promise.all(Array.from({ length: 6 }, () => store.put(bytes)));
      expect(new Set(results.map((r) => r.hash))).toEqual(new Set([sha256(bytes)]));
      expect(results.some((r) => r.created)).toBe(true);
      expect((await store.get(sha256(bytes)))?.bytes.equals(bytes)).toBe(true);
    });

    it('streams an image whole or by byte range, telling the whole size', async () => {
      const { store } = subject();
      const bytes = await sampleImage('image/png', 52);
      const { hash } = await store.put(bytes);
      const whole = await store.open(hash);
      expect(whole).toMatchObject({ hash, contentType: 'image/png', size: bytes.length });
      expect((await readAll(whole!.body)).equals(bytes)).toBe(true);
      // (Not 0-0: s3rver answers that one whole.)
      for (const range of [{ start: 0, end: 1 }, { start: 5, end: 20 }, { start: bytes.length - 3, end: bytes.length - 1 }]) {
        const part = await store.open(hash, range);
        expect(part).toMatchObject({ contentType: 'image/png', size: bytes.length });
        expect((await readAll(part!.body)).equals(bytes.subarray(range.start, range.end + 1))).toBe(true);
      }
    });

    it('refuses bytes that are not an accepted image, writing nothing', async () => {
      const { store } = subject();
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');
      const error = await store.put(svg).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ kind: 'unsupported', code: 'image_type_unsupported' });
      expect(await store.has(sha256(svg))).toBe(false);
    });

    it('answers null for unknown hashes and never looks up what is not a hash', async () => {
      const { store } = subject();
      for (const missing of ['a'.repeat(64), '../secret.txt', '..%2Fsecret.txt', 'A'.repeat(64), `${'a'.repeat(63)}/`, '', `${'b'.repeat(64)}/../x`]) {
        expect(await store.get(missing)).toBeNull();
        expect(await store.has(missing)).toBe(false);
        expect(await store.stat(missing)).toBeNull();
        expect(await store.open(missing)).toBeNull();
      }
    });

    it('deletes an image (a person erased), once; a hash that is not one is never looked up', async () => {
      const { store } = subject();
      const stored = await store.put(await sampleImage('image/png', 77));
      expect(await store.delete(stored.hash)).toBe(true);
      expect(await store.has(stored.hash)).toBe(false);
      expect(await store.get(stored.hash)).toBeNull();
      expect(await store.delete(stored.hash)).toBe(false);
      expect(await store.delete('../../etc/passwd')).toBe(false);
      // Put again, it is there again.
      expect((await store.put(await sampleImage('image/png', 77))).created).toBe(true);
    });

    it('answers the readiness ping', async () => {
      await expect(subject().store.ping()).resolves.toBeUndefined();
    });
  });
}
