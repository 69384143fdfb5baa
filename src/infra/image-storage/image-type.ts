// Which image formats the product takes, and how to tell them from their first bytes.
// The bytes decide, never a file name or a Content-Type header: a server can say image/png and send HTML.

import { IMAGE_FORMATS, sniffImageType, type ImageContentType } from '../../contracts/image-formats.ts';

export { sniffImageType, type ImageContentType };

/** The accepted formats' standard media types (src/contracts/image-formats.ts is the one list). */
export const ACCEPTED_IMAGE_TYPES: readonly ImageContentType[] = IMAGE_FORMATS.map((format) => format.mimeTypes[0]);

export function isAcceptedImageType(value: string): value is ImageContentType {
  return (ACCEPTED_IMAGE_TYPES as readonly string[]).includes(value);
}

/**
 * The media type of a Content-Type header, lower-cased, without parameters, with the common
 * non-standard spellings and other names mapped to the standard ones ('image/jpg' → 'image/jpeg', 'image/heif' →
 * 'image/heic').
 */
export function normaliseMediaType(header: string | undefined): string {
  const mediaType = (header ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType === 'image/jpg' || mediaType === 'image/pjpeg') return 'image/jpeg';
  if (mediaType === 'image/x-png') return 'image/png';
  // A format's other names in the list (image/heif for HEIC).
  return IMAGE_FORMATS.find((format) => (format.mimeTypes as readonly string[]).includes(mediaType))?.mimeTypes[0] ?? mediaType;
}
