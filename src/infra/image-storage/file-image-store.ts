import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { isImageHash, notAnImageError, type ImageStore, type OpenedImage, type StoredImage, type StoredImageWithBytes } from './image-store.ts';
import { sniffImageType } from './image-type.ts';

/**
 * Content-addressed files under `rootDir` (config.imagesDir): `ab/cd/abcd…` for hash `abcd…`, two
 * levels of 256 directories so no directory grows past a few thousand files. A file appears
 * whole or not at all: it is written to a temporary name beside its final place, flushed, then renamed.
 */
export function createFileImageStore(rootDir: string): ImageStore {
  const pathOf = (hash: string) => path.join(rootDir, hash.slice(0, 2), hash.slice(2, 4), hash);

  async function sizeOf(hash: string): Promise<number | null> {
    try {
      return (await stat(pathOf(hash))).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /** The file open for reading, with its sniffed type and size; null when there is none. */
  async function openFile(hash: string) {
    if (!isImageHash(hash)) return null;
    let file;
    try {
      file = await open(pathOf(hash), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    try {
      const { size } = await file.stat();
      const head = Buffer.alloc(Math.min(size, 64));
      await file.read(head, 0, head.length, 0);
      const contentType = sniffImageType(head);
      if (!contentType) throw new Error(`Stored image ${hash} is not an image any more`);
      return { file, image: { hash, contentType, size, path: pathOf(hash) } satisfies StoredImage };
    } catch (error) {
      await file.close();
      throw error;
    }
  }

  return {
    location: rootDir,

    async put(bytes) {
      const contentType = sniffImageType(bytes);
      if (!contentType) throw notAnImageError();
      const hash = createHash('sha256').update(bytes).digest('hex');
      const finalPath = pathOf(hash);
      const stored: StoredImage = { hash, contentType, size: bytes.length, path: finalPath };
      if ((await sizeOf(hash)) !== null) return { ...stored, created: false };

      await mkdir(path.dirname(finalPath), { recursive: true });
      const temporaryPath = `${finalPath}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        const file = await open(temporaryPath, 'wx');
        try {
          await file.writeFile(bytes);
          await file.sync();
        } finally {
          await file.close();
        }
        // Two writers of the same bytes both rename; the second replaces identical content, atomically.
        await rename(temporaryPath, finalPath);
      } catch (error) {
        await rm(temporaryPath, { force: true });
        throw error;
      }
      return { ...stored, created: true };
    },

    async get(hash) {
      if (!isImageHash(hash)) return null;
      let bytes: Buffer;
      try {
        bytes = await readFile(pathOf(hash));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      const contentType = sniffImageType(bytes);
      // Only put() writes here, and it checks the type, so this is a damaged or foreign file.
      if (!contentType) throw new Error(`Stored image ${hash} is not an image any more`);
      return { hash, contentType, size: bytes.length, path: pathOf(hash), bytes } satisfies StoredImageWithBytes;
    },

    async has(hash) {
      return isImageHash(hash) && (await sizeOf(hash)) !== null;
    },

    async stat(hash) {
      const opened = await openFile(hash);
      if (!opened) return null;
      await opened.file.close();
      return opened.image;
    },

    async open(hash, range) {
      const opened = await openFile(hash);
      if (!opened) return null;
      const body = opened.file.createReadStream(range ? { start: range.start, end: range.end } : { start: 0 });
      return { ...opened.image, body } satisfies OpenedImage;
    },

    async delete(hash) {
      if (!isImageHash(hash)) return false;
      try {
        await rm(pathOf(hash));
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw error;
      }
    },

    async ping() {
      await mkdir(rootDir, { recursive: true });
      await access(rootDir, constants.R_OK | constants.W_OK);
    },
  };
}
