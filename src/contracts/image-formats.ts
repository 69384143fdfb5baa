// THE list of photo formats the product takes: the decoder, the upload checks, the error messages and the
// web app's file pickers all read it, so what a picker offers is what the server grades. HEIC (an iPhone's default,
// HEVC in the container AVIF uses too) is decoded by libheif (src/vision/heic.ts), as the libvips sharp ships has no
// HEVC decoder. TIFF is not in it: no camera or phone saves it.

export interface ImageFormat {
  /** How people call it, in messages. */
  label: string;
  /** What a browser or a server may call it; the first is the standard name. */
  mimeTypes: readonly string[];
  extensions: readonly string[];
}

export const IMAGE_FORMATS = [
  { label: 'JPEG', mimeTypes: ['image/jpeg'], extensions: ['.jpg', '.jpeg'] },
  { label: 'PNG', mimeTypes: ['image/png'], extensions: ['.png'] },
  { label: 'WebP', mimeTypes: ['image/webp'], extensions: ['.webp'] },
  { label: 'HEIC', mimeTypes: ['image/heic', 'image/heif'], extensions: ['.heic', '.heif'] },
  { label: 'AVIF', mimeTypes: ['image/avif'], extensions: ['.avif'] },
  { label: 'GIF', mimeTypes: ['image/gif'], extensions: ['.gif'] },
] as const satisfies readonly ImageFormat[];

/** "JPEG, PNG, WebP, HEIC, AVIF or GIF". */
export const IMAGE_FORMATS_LABEL = `${IMAGE_FORMATS.slice(0, -1).map((f) => f.label).join(', ')} or ${IMAGE_FORMATS.at(-1)!.label}`;

/**
 * The largest photo the server takes by default (IMAGE_MAX_BYTES, 15 MiB, README and .env.example): said before
 * upload and checked when a file is chosen, so a too-large photo is refused at once, not after Grade Card.
 */
export const PHOTO_MAX_BYTES = 15 * 1024 * 1024;
export const PHOTO_MAX_LABEL = '15 MB';

/** For `<input type="file" accept=…>`: the media types and the extensions (some browsers know HEIC only by name). */
export const IMAGE_ACCEPT_ATTRIBUTE = IMAGE_FORMATS.flatMap((f) => [...f.mimeTypes, ...f.extensions]).join(',');

/**
 * Whether a chosen file is one of IMAGE_FORMATS, by its media type or, when the browser gives none (HEIC outside
 * Safari), by its name. The server still checks the bytes.
 */
export function isImageFormatFile(file: { name: string; type: string }): boolean {
  const name = file.name.toLowerCase();
  return IMAGE_FORMATS.some((format) => (format.mimeTypes as readonly string[]).includes(file.type) || (file.type === '' && format.extensions.some((extension) => name.endsWith(extension))));
}

export type ImageContentType = (typeof IMAGE_FORMATS)[number]['mimeTypes'][0];

const ascii = (bytes: Uint8Array, start: number, length: number): string => String.fromCharCode(...bytes.subarray(start, start + length));

/** Which of IMAGE_FORMATS these bytes are (by their first bytes, never a name or a header), or null. */
export function sniffImageType(bytes: Uint8Array): ImageContentType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n') return 'image/png';
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a')) return 'image/gif';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'image/webp';
  const brands = ftypBrands(bytes);
  if (brands.some((brand) => AVIF_BRANDS.has(brand))) return 'image/avif';
  if (brands.some((brand) => HEIF_BRANDS.has(brand))) return 'image/heic';
  return null;
}

const AVIF_BRANDS = new Set(['avif', 'avis']);
/**
 * HEIC's brands (HEVC stills and sequences), and HEIF's generic ones (mif1, msf1) that an AVIF names too: AVIF is
 * told first, by its own brand.
 */
const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'mif1', 'msf1']);

/** The major and compatible brands of an ISO-BMFF `ftyp` box at the start of the file (AVIF, HEIC), or none. */
function ftypBrands(bytes: Uint8Array): string[] {
  if (bytes.length < 16 || ascii(bytes, 4, 4) !== 'ftyp') return [];
  const boxSize = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  const end = Math.min(boxSize, bytes.length);
  const brands = [ascii(bytes, 8, 4)];
  for (let offset = 16; offset + 4 <= end; offset += 4) brands.push(ascii(bytes, offset, 4));
  return brands;
}
