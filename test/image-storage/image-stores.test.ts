import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImagesCommand } from '../../scripts/images.ts';
import { loadConfig } from '../../src/config.ts';
import { createFileImageStore, createS3ImageStore, imageStoreWarning, ImageStoreUnavailableError, type ImageStore } from '../../src/infra/image-storage/index.ts';
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

describe('npm run images -- copy', () => {
  it('copies a files-mode folder into a bucket, resumably and idempotently, leaving damaged files behind', async () => {
    const source = await mkdtemp(path.join(os.tmpdir(), 'images-copy-'));
    try {
      const local = createFileImageStore(source);
      const hashes: string[] = [];
      for (let i = 0; i < 12; i++) hashes.push((await local.put(await sampleImage('image/png', 100 + i))).hash);
      // A damaged file (bytes that are not its name's), a write in progress and a stray file.
      const damaged = hashes[11]!;
      await writeFile(path.join(source, damaged.slice(0, 2), damaged.slice(2, 4), damaged), await sampleImage('image/png', 999));
      await writeFile(path.join(source, 'ab.123.tmp'), 'half');
      await writeFile(path.join(source, 'notes.txt'), 'hello');
      // A copy that stopped half-way: a few are already in the bucket.
      const target = createS3ImageStore(s3.storeOptions('copied'));
      for (const hash of hashes.slice(0, 4)) await target.put((await local.get(hash))!.bytes);

      const lines: string[] = [];
      const run = () => runImagesCommand(['copy', '--to', `s3://${s3.bucket}/copied`, '--from', source], { ...s3.env('copied') }, (line) => lines.push(line));
      expect(await run()).toBe(2);
      expect(lines.at(-3)).toMatch(/^done in [\d.]+ s: 7 copied, 4 already there, 2 left behind$/);
      expect(lines.slice(-2).join('\n')).toMatch(/damaged: its bytes do not match its name[\s\S]*notes\.txt: not an image of the store/);
      for (const hash of hashes.slice(0, 11)) expect((await target.get(hash))?.bytes.equals((await local.get(hash))!.bytes)).toBe(true);
      expect(await target.has(damaged)).toBe(false);
      expect(s3.writesOf(`copied/${hashes[0]}`)).toBe(1);

      lines.length = 0;
      expect(await run()).toBe(2);
      expect(lines.at(-3)).toMatch(/: 0 copied, 11 already there, 2 left behind$/);

      // The bucket down: it stops and says how to go on.
      await s3.stop();
      lines.length = 0;
      try {
        expect(await run()).toBe(1);
      } finally {
        await s3.start();
      }
      expect(lines.join('\n')).toMatch(/stopped: .*ECONNREFUSED/);
      target.close?.();
      expect(await runImagesCommand(['copy', '--to', 'file:///tmp'], {}, (line) => lines.push(line))).toBe(1);
      expect(lines.at(-1)).toMatch(/^usage: npm run images -- copy --to s3:\/\/BUCKET/);
    } finally {
      await rm(source, { recursive: true, force: true });
    }
  });
});

describe('configuration', () => {
  it('reads IMAGE_STORE and refuses what is not s3://BUCKET[/PREFIX]', () => {
    expect(loadConfig({}).imageStore).toEqual({ kind: 'files' });
    expect(loadConfig({ IMAGE_STORE: 's3://card-images' }).imageStore).toEqual({ kind: 's3', bucket: 'card-images', prefix: '' });
    expect(loadConfig({ IMAGE_STORE: 's3://card-images/prod/photos/' }).imageStore).toEqual({ kind: 's3', bucket: 'card-images', prefix: 'prod/photos' });
    for (const wrong of ['s3://', 's3://Upper', 'gs://bucket', '/var/images', 's3://a']) {
      expect(() => loadConfig({ IMAGE_STORE: wrong })).toThrow(/IMAGE_STORE takes s3:\/\/BUCKET/);
    }
    expect(() => loadConfig({ IMAGE_STORE: 's3://b1', AWS_ENDPOINT_URL_S3: 'minio:9000' })).toThrow(/AWS_ENDPOINT_URL_S3/);
  });

  it('warns a service-mode process whose images stay on its own disk', () => {
    expect(imageStoreWarning(loadConfig({ DATA_DIR: '/srv/cards' }))).toBeUndefined();
    expect(imageStoreWarning(loadConfig({ DATABASE_URL: 'postgres://db/cards', IMAGE_STORE: 's3://card-images' }))).toBeUndefined();
    expect(imageStoreWarning(loadConfig({ DATABASE_URL: 'postgres://db/cards', DATA_DIR: '/srv/cards' }))).toBe(
      "IMAGE_STORE is not set: images stay on this machine's disk (/srv/cards/images), so only one API process may serve them and photos stored by other processes or workers are not found here. Set IMAGE_STORE=s3://BUCKET to share them (README.md, Service mode).",
    );
  });
});
