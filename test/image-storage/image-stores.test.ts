import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileImageStore, createS3ImageStore, ImageStoreUnavailableError, type ImageStore } from '../../src/infra/image-storage/index.ts';
import { startS3Server, type S3TestServer } from '../support/s3-server.ts';
import { imageStoreContract } from './image-store-contract.ts';
import { sampleImage } from './sample-images.ts';

// Both adapters pass the one contract; the S3 adapter against s3rver on loopback, then what only a remote store
// does: go away and come back, and keep prefixes apart.

let rootDir: string;
let files: ImageStore;
let s3: S3TestServer;
let bucket: ImageStore;

beforeAll(async () => {
  rootDir = await mkdtemp(path.join(os.tmpdir(), 'image-stores-'));
  files = createFileImageStore(rootDir);
  s3 = await startS3Server();
  bucket = createS3ImageStore(s3.storeOptions('contract'));
});
afterAll(async () => {
  bucket?.close?.();
  await s3?.destroy();
  await rm(rootDir, { recursive: true, force: true });
});

imageStoreContract('files', () => ({
  store: files,
  async writeMark(hash) {
    const { mtimeMs, ino } = await stat(path.join(rootDir, hash.slice(0, 2), hash.slice(2, 4), hash));
    return `${mtimeMs}:${ino}`;
  },
}));

imageStoreContract('S3', () => ({ store: bucket, writeMark: async (hash) => String(s3.writesOf(`contract/${hash}`)) }));

describe('S3 image store, beyond the contract', () => {
  it('keeps each prefix to itself', async () => {
    const other = createS3ImageStore(s3.storeOptions('elsewhere/deeper'));
    try {
      const { hash, path: key } = await bucket.put(await sampleImage('image/gif', 60));
      expect(key).toBe(`contract/${hash}`);
      expect(await other.has(hash)).toBe(false);
      expect((await other.put(await sampleImage('image/gif', 60))).path).toBe(`elsewhere/deeper/${hash}`);
      expect(s3.writesOf(`elsewhere/deeper/${hash}`)).toBe(1);
    } finally {
      other.close?.();
    }
  });

  it('answers 503 while the store is down, writes nothing, and serves again by itself once it is back', async () => {
    const before = await sampleImage('image/jpeg', 61);
    const { hash } = await bucket.put(before);
    const during = await sampleImage('image/jpeg', 62);
    await s3.stop();
    try {
      for (const call of [() => bucket.put(during), () => bucket.get(hash), () => bucket.open(hash), () => bucket.stat(hash), () => bucket.has(hash)]) {
        const error = await call().then(() => undefined, (e: unknown) => e);
        expect(error).toBeInstanceOf(ImageStoreUnavailableError);
        expect(error).toMatchObject({ kind: 'unavailable', code: 'image_store_unavailable', message: expect.stringContaining('Photo storage is not answering') });
      }
      await expect(bucket.ping()).rejects.toThrow(/s3:\/\/card-images\/contract: .*ECONNREFUSED/);
    } finally {
      await s3.start();
    }
    expect((await bucket.get(hash))?.bytes.equals(before)).toBe(true);
    const stored = await bucket.put(during);
    expect(stored.created).toBe(true);
    await expect(bucket.ping()).resolves.toBeUndefined();
  });

  it('answers 503, not "not found", when the bucket is missing, and readiness says so', async () => {
    // (s3rver checks no signatures, so refused credentials cannot be shown here; they take the same path.)
    const wrongBucket = createS3ImageStore({ ...s3.storeOptions(), bucket: 'no-such-bucket', maxAttempts: 1 });
    try {
      await expect(wrongBucket.put(await sampleImage('image/png', 63))).rejects.toBeInstanceOf(ImageStoreUnavailableError);
      await expect(wrongBucket.ping()).rejects.toThrow('s3://no-such-bucket answered 404 (NotFound)');
    } finally {
      wrongBucket.close?.();
    }
  });
});
