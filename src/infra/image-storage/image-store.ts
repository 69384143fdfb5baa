import type { Readable } from 'node:stream';
import { AppError } from '../../contracts/errors.ts';
import type { ImageContentType } from './image-type.ts';

// Images are stored once, by the SHA-256 of their bytes (DESIGN.md §2): the same photo uploaded
// twice, by anyone, is one file, and a hash in a URL can be cached for ever because its bytes never change.
// Two adapters: files under DATA_DIR/images (one machine), and an S3-compatible bucket (IMAGE_STORE=s3://…),
// which every API process and worker of the service mode shares.

export interface StoredImage {
  /** SHA-256 of the bytes, lower-case hex (64 characters). */
  hash: string;
  contentType: ImageContentType;
  /** The whole image's size in bytes. */
  size: number;
  /** Where the adapter keeps it: a file path for the files adapter, a key for an object store. */
  path: string;
}

export interface StoredImageWithBytes extends StoredImage {
  bytes: Buffer;
}

/** Bytes `start` to `end` of an image, both included (HTTP's byte ranges). */
export interface ByteRange {
  start: number;
  end: number;
}

/** An image being read: its description and its bytes (the whole image, or the range asked for) as a stream. */
export interface OpenedImage extends StoredImage {
  body: Readable;
}

export interface ImageStore {
  /** Where the images are, for logs and the operator: a folder, or `s3://bucket/prefix`. */
  readonly location: string;
  /**
   * Stores the bytes unless they are already there (then nothing is written); refuses bytes that are not an
   * accepted image. Resolves only once the image is durably stored, so an event may then name it.
   */
  put(bytes: Uint8Array): Promise<StoredImage & { created: boolean }>;
  /** The image with this hash, or null when there is none (or the hash is not a hash). */
  get(hash: string): Promise<StoredImageWithBytes | null>;
  has(hash: string): Promise<boolean>;
  /** The image's type and size without its bytes, or null. */
  stat(hash: string): Promise<StoredImage | null>;
  /** The image's bytes as a stream (all of them, or `range`), or null when there is none. */
  open(hash: string, range?: ByteRange): Promise<OpenedImage | null>;
  /** Deletes the image (a person erased who alone had it); true when there was one. Content-addressed: the caller
   * makes sure nobody else names it. */
  delete(hash: string): Promise<boolean>;
  /** Resolves when the store answers and can be written; rejects with the reason otherwise (readiness). */
  ping(): Promise<void>;
  /** Lets go of connections (the runtime calls it last). */
  close?(): void;
}

const sha256HexPattern = /^[0-9a-f]{64}$/;

/** A well-formed image hash. Anything else is never looked up, so it can never become a path. */
export function isImageHash(value: string): boolean {
  return sha256HexPattern.test(value);
}

export function notAnImageError(): AppError {
  return new AppError(
    'unsupported',
    'image_type_unsupported',
    'That file is not an image we can read. Please use a JPG, PNG, WEBP, HEIC, GIF or AVIF image.',
  );
}

/**
 * The image store does not answer (down, unreachable, refusing our credentials): 503 with a plain message; the
 * reason (`cause`) goes to the log, never to the client. Nothing that depends on the image is recorded.
 */
export class ImageStoreUnavailableError extends AppError {
  constructor(cause: unknown) {
    super('unavailable', 'image_store_unavailable', 'Photo storage is not answering right now. Please try again in a minute.');
    this.cause = cause;
  }
}
