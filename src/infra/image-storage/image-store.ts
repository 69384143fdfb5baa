import { AppError } from '../../contracts/errors.ts';
import type { ImageContentType } from './image-type.ts';

// Images are stored once, by the SHA-256 of their bytes (DESIGN.md §2): the same photo uploaded
// twice, by anyone, is one file, and a hash in a URL can be cached for ever because its bytes never change.

export interface StoredImage {
  /** SHA-256 of the bytes, lower-case hex (64 characters). */
  hash: string;
  contentType: ImageContentType;
  size: number;
  /** Where the adapter keeps it: a file path for the files adapter, a key for an object store. */
  path: string;
}

export interface StoredImageWithBytes extends StoredImage {
  bytes: Buffer;
}

export interface ImageStore {
  /** Stores the bytes unless they are already there; refuses bytes that are not an accepted image. */
  put(bytes: Uint8Array): Promise<StoredImage & { created: boolean }>;
  /** The image with this hash, or null when there is none (or the hash is not a hash). */
  get(hash: string): Promise<StoredImageWithBytes | null>;
  has(hash: string): Promise<boolean>;
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
    'That file is not an image we can read. Please use a JPG, PNG, WEBP, GIF or AVIF image.',
  );
}
