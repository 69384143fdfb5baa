import type { Config } from '../../config.ts';
import { createFileImageStore } from './file-image-store.ts';
import type { ImageStore } from './image-store.ts';

export * from './image-store.ts';
export * from './image-type.ts';
export { createFileImageStore } from './file-image-store.ts';

/** The image store the settings ask for: files under DATA_DIR/images (the only adapter so far). */
export function openImageStore(config: Pick<Config, 'imagesDir'>): ImageStore {
  return createFileImageStore(config.imagesDir);
}
