import { createHash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, PutObjectCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { ImageStoreUnavailableError, isImageHash, notAnImageError, type ImageStore, type StoredImage } from './image-store.ts';
import { isAcceptedImageType, sniffImageType } from './image-type.ts';

// Images in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Google Cloud Storage's XML API), so every API
// process and worker of the service mode reads the same images. One object per image, its key the SHA-256 of its
// bytes under the prefix, its Content-Type the sniffed type. Objects are written whole or not at all (an S3 PUT is
// atomic), and a put of bytes already there writes nothing: it asks first (HEAD). Two processes putting the same new
// bytes at once both write identical bytes, which is harmless.

export interface S3ImageStoreOptions {
  bucket: string;
  /** Key prefix, without leading or trailing slash ('' for the bucket's root). */
  prefix: string;
  /** AWS_ENDPOINT_URL_S3: unset for AWS itself. */
  endpoint?: string | undefined;
  region: string;
  /** S3_FORCE_PATH_STYLE: `endpoint/bucket/key` instead of `bucket.endpoint/key` (MinIO, s3rver). */
  forcePathStyle: boolean;
  /** Unset: the SDK's default chain (environment, profile, instance or task role). */
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** How long to wait for a connection and for an answer before the store counts as unreachable. */
  connectTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Tries per call (the SDK retries connection failures and 5xx with backoff); default 3. */
  maxAttempts?: number;
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

function isNotFound(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'NotFound' || name === 'NoSuchKey' || (statusOf(error) === 404 && name !== 'NoSuchBucket');
}

export function createS3ImageStore(options: S3ImageStoreOptions): ImageStore {
  const agentOptions = { keepAlive: true, maxSockets: 64 };
  const config: S3ClientConfig = {
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    maxAttempts: options.maxAttempts ?? 3,
    // Checksums only where the API requires them: the SDK's newer default (CRC32 on every put and get) is not
    // understood by every S3-compatible store, and a content-addressed image is checked by its hash anyway.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    followRegionRedirects: true,
    requestHandler: {
      connectionTimeout: options.connectTimeoutMs ?? 2_000,
      requestTimeout: options.requestTimeoutMs ?? 15_000,
      httpAgent: new http.Agent(agentOptions),
      httpsAgent: new https.Agent(agentOptions),
    },
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
  };
  const client = new S3Client(config);
  const { bucket } = options;
  const keyPrefix = options.prefix ? `${options.prefix}/` : '';
  const keyOf = (hash: string) => `${keyPrefix}${hash}`;
  const location = `s3://${bucket}${options.prefix ? `/${options.prefix}` : ''}`;

  /** Runs one call; not found → null, anything else that fails → 503 (ImageStoreUnavailableError). */
  async function call<T>(work: () => Promise<T>): Promise<T | null> {
    try {
      return await work();
    } catch (error) {
      if (isNotFound(error)) return null;
      throw new ImageStoreUnavailableError(error);
    }
  }

  async function stat(hash: string): Promise<StoredImage | null> {
    if (!isImageHash(hash)) return null;
    const head = await call(() => client.send(new HeadObjectCommand({ Bucket: bucket, Key: keyOf(hash) })));
    if (!head) return null;
    const contentType = head.ContentType?.split(';')[0]?.trim().toLowerCase() ?? '';
    if (!isAcceptedImageType(contentType)) throw new Error(`Stored image ${keyOf(hash)} has the content type '${head.ContentType}', not an image's`);
    return { hash, contentType, size: head.ContentLength ?? 0, path: keyOf(hash) };
  }

  return {
    location,

    async put(bytes) {
      const contentType = sniffImageType(bytes);
      if (!contentType) throw notAnImageError();
      const hash = createHash('sha256').update(bytes).digest('hex');
      const stored: StoredImage = { hash, contentType, size: bytes.length, path: keyOf(hash) };
      const existing = await call(() => client.send(new HeadObjectCommand({ Bucket: bucket, Key: keyOf(hash) })));
      // An object of another size under this hash is not these bytes (a foreign or damaged object): replace it.
      if (existing && existing.ContentLength === bytes.length) return { ...stored, created: false };
      await call(() =>
        client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: keyOf(hash),
            Body: bytes,
            ContentType: contentType,
            ContentLength: bytes.length,
            // Its bytes never change: whoever serves it straight from the bucket (a CDN) may cache it for ever.
            CacheControl: 'public, max-age=31536000, immutable',
            ContentMD5: createHash('md5').update(bytes).digest('base64'),
          }),
        ),
      );
      return { ...stored, created: true };
    },

    async get(hash) {
      if (!isImageHash(hash)) return null;
      const bytes = await call(async () => {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(hash) }));
        return Buffer.from(await object.Body!.transformToByteArray());
      });
      if (!bytes) return null;
      const contentType = sniffImageType(bytes);
      if (!contentType) throw new Error(`Stored image ${keyOf(hash)} is not an image any more`);
      return { hash, contentType, size: bytes.length, path: keyOf(hash), bytes };
    },

    async has(hash) {
      return (await stat(hash)) !== null;
    },

    stat,

    async open(hash, range) {
      if (!isImageHash(hash)) return null;
      const object = await call(() =>
        client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(hash), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) })),
      );
      if (!object) return null;
      const body = object.Body as Readable;
      const contentType = object.ContentType?.split(';')[0]?.trim().toLowerCase() ?? '';
      if (!isAcceptedImageType(contentType)) {
        body.destroy();
        throw new Error(`Stored image ${keyOf(hash)} has the content type '${object.ContentType}', not an image's`);
      }
      // A range's answer says the whole size after the slash: "bytes 0-99/12345".
      const total = /\/(\d+)$/.exec(object.ContentRange ?? '')?.[1];
      const size = total ? Number(total) : (object.ContentLength ?? 0);
      return { hash, contentType, size, path: keyOf(hash), body };
    },

    async delete(hash) {
      if (!isImageHash(hash) || !(await stat(hash))) return false;
      await call(() => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(hash) })));
      return true;
    },

    async ping() {
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }));
      } catch (error) {
        const status = statusOf(error);
        throw new Error(status ? `${location} answered ${status} (${(error as Error).name})` : `${location}: ${(error as Error).message || (error as Error).name}`, { cause: error });
      }
    },

    close() {
      client.destroy();
    },
  };
}
