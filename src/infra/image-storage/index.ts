import type { Config } from '../../config.ts';
import { createFileImageStore } from './file-image-store.ts';
import type { ImageStore } from './image-store.ts';
import { createS3ImageStore } from './s3-image-store.ts';

export * from './image-store.ts';
export * from './image-type.ts';
export { createFileImageStore } from './file-image-store.ts';
export { copyImages, type CopyReport } from './copy-images.ts';
export { createS3ImageStore, type S3ImageStoreOptions } from './s3-image-store.ts';

/** The S3 client's settings from the configuration (IMAGE_STORE=s3://…, the AWS_* variables, S3_FORCE_PATH_STYLE). */
export function s3Options(config: Pick<Config, 'imageStore' | 'AWS_ENDPOINT_URL_S3' | 'AWS_REGION' | 'AWS_ACCESS_KEY_ID' | 'AWS_SECRET_ACCESS_KEY' | 'S3_FORCE_PATH_STYLE'>, target = config.imageStore) {
  if (target.kind !== 's3') throw new Error('not an S3 image store');
  return {
    bucket: target.bucket,
    prefix: target.prefix,
    endpoint: config.AWS_ENDPOINT_URL_S3,
    region: config.AWS_REGION,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    credentials: config.AWS_ACCESS_KEY_ID && config.AWS_SECRET_ACCESS_KEY ? { accessKeyId: config.AWS_ACCESS_KEY_ID, secretAccessKey: config.AWS_SECRET_ACCESS_KEY } : undefined,
  };
}

/** The image store the settings ask for: a bucket with IMAGE_STORE=s3://BUCKET[/PREFIX], else files under DATA_DIR/images. */
export function openImageStore(config: Pick<Config, 'imageStore' | 'imagesDir' | 'AWS_ENDPOINT_URL_S3' | 'AWS_REGION' | 'AWS_ACCESS_KEY_ID' | 'AWS_SECRET_ACCESS_KEY' | 'S3_FORCE_PATH_STYLE'>): ImageStore {
  return config.imageStore.kind === 's3' ? createS3ImageStore(s3Options(config)) : createFileImageStore(config.imagesDir);
}

/**
 * The start-up warning for a service-mode process (DATABASE_URL set, so several processes may run) whose images
 * stay on its own disk; undefined when there is nothing to say.
 */
export function imageStoreWarning(config: Pick<Config, 'DATABASE_URL' | 'imageStore' | 'imagesDir'>): string | undefined {
  if (!config.DATABASE_URL || config.imageStore.kind === 's3') return undefined;
  return (
    `IMAGE_STORE is not set: images stay on this machine's disk (${config.imagesDir}), so only one API process may serve them ` +
    `and photos stored by other processes or workers are not found here. Set IMAGE_STORE=s3://BUCKET to share them (README.md, Service mode).`
  );
}
