import type { Config } from '../../config.ts';
import { createImageFetcher, imageFetcherOptions, type ImageFetcher } from './image-fetcher.ts';

export * from './image-fetcher.ts';
export { classifyAddress, refusedAddressKind, type AddressKind } from './address-policy.ts';

/** The process's one image fetcher: its concurrency limit only means something if it is shared. */
export function openImageFetcher(config: Config): ImageFetcher {
  return createImageFetcher(imageFetcherOptions(config));
}
