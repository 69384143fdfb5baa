// Which image formats the product takes, and how to tell them from their first bytes.
// The bytes decide, never a file name or a Content-Type header: a server can say image/png and send HTML.

/** Formats sharp decodes in this build. HEIC is missing on purpose: the prebuilt libvips only reads AVIF from the HEIF family. */
export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'] as const;
export type ImageContentType = (typeof ACCEPTED_IMAGE_TYPES)[number];

export function isAcceptedImageType(value: string): value is ImageContentType {
  return (ACCEPTED_IMAGE_TYPES as readonly string[]).includes(value);
}

const ascii = (bytes: Uint8Array, start: number, length: number): string =>
  String.fromCharCode(...bytes.subarray(start, start + length));

/** The accepted image format these bytes are, or null (not an image, or one we do not decode). */
export function sniffImageType(bytes: Uint8Array): ImageContentType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n') return 'image/png';
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a')) return 'image/gif';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'image/webp';
  if (isAvif(bytes)) return 'image/avif';
  return null;
}

/** An ISO-BMFF `ftyp` box whose major or compatible brands name AVIF (not HEIC, which shares the container). */
function isAvif(bytes: Uint8Array): boolean {
  if (bytes.length < 16 || ascii(bytes, 4, 4) !== 'ftyp') return false;
  const boxSize = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  const end = Math.min(boxSize, bytes.length);
  const brands = [ascii(bytes, 8, 4)];
  for (let offset = 16; offset + 4 <= end; offset += 4) brands.push(ascii(bytes, offset, 4));
  return brands.includes('avif') || brands.includes('avis');
}

/**
 * The media type of a Content-Type header, lower-cased, without parameters, with the common
 * non-standard spellings mapped to the standard ones ('image/jpg' → 'image/jpeg').
 */
export function normaliseMediaType(header: string | undefined): string {
  const mediaType = (header ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType === 'image/jpg' || mediaType === 'image/pjpeg') return 'image/jpeg';
  if (mediaType === 'image/x-png') return 'image/png';
  return mediaType;
}
