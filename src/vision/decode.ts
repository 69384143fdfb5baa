import sharp from 'sharp';
import type { Metadata, Sharp } from 'sharp';
import { IMAGE_FORMATS_LABEL, sniffImageType, type ImageContentType } from '../contracts/image-formats.ts';
import { ImageMeasurementError } from './errors.ts';
import { decodeHeic, type RgbaPixels } from './heic.ts';
import type { DecodedImage } from './image.ts';

export interface DecodeOptions {
  /** Refuse images with more pixels than this (decompression bombs), before decoding them. */
  maxPixels: number;
  /**
   * Shrink so the longer side is at most this. Measured with sharp 0.35 on a 12-MP JPEG: the JPEG decoder shrinks
   * on load only when the reduction is 3× or more (to ≤ 1344 px: about half the time of a full decode); a smaller
   * reduction decodes in full and then resizes, which is slower than no maxSide at all. Measuring is as accurate
   * at the ~11.5 px/mm a card then has (test/vision/centering.test.ts), so 1344 suits 12-MP photos.
   */
  maxSide?: number;
}

/** sharp's name for each format it reads itself: what its header must say once the first bytes have been recognised. */
const SHARP_FORMAT: Record<Exclude<ImageContentType, 'image/heic'>, string> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'heif',
  'image/gif': 'gif',
};

const NOT_A_PHOTO = `The file is not a photo we can read (${IMAGE_FORMATS_LABEL}).`;

/**
 * The JPEG quality of the copy shown for a photo browsers cannot draw (HEIC): as good as a phone's own JPEG, about
 * a fifth of the size of the pixels it holds.
 */
const DISPLAY_JPEG_QUALITY = 90;

/**
 * Decodes a photo to upright 8-bit sRGB: EXIF orientation applied, CMYK and 16-bit converted, alpha flattened.
 * Every way a file can fail to be a usable photo is refused with its own ImageMeasurementError code. A HEIC is
 * decoded by libheif first (src/vision/heic.ts); its pixels may be passed instead of the file, decoded once for
 * several decodes (the larger decode of a card small in the photo, the copy shown in browsers).
 */
export async function decodeImage(photo: Uint8Array | RgbaPixels, options: DecodeOptions): Promise<DecodedImage> {
  if (!(photo instanceof Uint8Array)) return decodePixels(photo, options);
  const bytes = photo;
  if (bytes.length === 0) throw new ImageMeasurementError('empty_image', 'The file is empty.');
  // The one list of formats (src/contracts/image-formats.ts): anything else (text, SVG, PDF, TIFF) never reaches a
  // decoder.
  const sniffed = sniffImageType(bytes);
  if (sniffed === null) throw new ImageMeasurementError('not_an_image', NOT_A_PHOTO);
  if (sniffed === 'image/heic') return decodePixels(await decodeHeic(bytes, options.maxPixels), options);

  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let metadata: Metadata;
  try {
    // Reads the header only: sizes and frame count are checked before a single pixel is decoded.
    metadata = await sharp(input, { failOn: 'error', limitInputPixels: false }).metadata();
  } catch {
    throw new ImageMeasurementError('truncated_image', 'The photo is damaged or incomplete.');
  }
  if (metadata.format !== SHARP_FORMAT[sniffed]) throw new ImageMeasurementError('not_an_image', NOT_A_PHOTO);
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  if (width <= 0 || height <= 0) throw new ImageMeasurementError('truncated_image', 'The photo is damaged or incomplete.');
  refuseIfTooLarge(width, height, options.maxPixels);
  if ((metadata.pages ?? 1) > 1) throw new ImageMeasurementError('animated_image', 'Animated images cannot be graded: send a photo.');

  // EXIF orientations 5 to 8 turn the photo a quarter: its upright width is the stored height.
  const quarterTurn = (metadata.orientation ?? 1) >= 5;
  const upright = quarterTurn ? { width: height, height: width } : { width, height };
  return toUprightRgb(sharp(input, { failOn: 'error', limitInputPixels: options.maxPixels, autoOrient: true }), upright, options);
}

/** A JPEG of decoded pixels, for the pages to show a photo that browsers cannot draw (HEIC: only Safari does). */
export async function displayCopy(pixels: RgbaPixels): Promise<Uint8Array> {
  const { data, width, height, channels } = pixels;
  const jpeg = await sharp(data, { raw: { width, height, channels } }).flatten({ background: '#ffffff' }).jpeg({ quality: DISPLAY_JPEG_QUALITY }).toBuffer();
  return new Uint8Array(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
}

function refuseIfTooLarge(width: number, height: number, maxPixels: number): void {
  if (width * height > maxPixels) {
    throw new ImageMeasurementError('image_too_large', `The photo is too large (${width} × ${height} pixels).`, { width, height, maxPixels });
  }
}

/** Pixels decoded outside sharp (HEIC), upright already, through the same conversions as a file. */
function decodePixels(pixels: RgbaPixels, options: DecodeOptions): Promise<DecodedImage> {
  const { data, width, height, channels } = pixels;
  refuseIfTooLarge(width, height, options.maxPixels);
  return toUprightRgb(sharp(data, { raw: { width, height, channels } }), { width, height }, options);
}

/** Shrunk to maxSide, alpha flattened, 8-bit sRGB; `upright` is the photo's own size. */
async function toUprightRgb(source: Sharp, upright: { width: number; height: number }, options: DecodeOptions): Promise<DecodedImage> {
  let pipeline = source;
  if (options.maxSide !== undefined && Math.max(upright.width, upright.height) > options.maxSide) {
    // Linear: what is left after the decoder's own shrink is a small reduction (1.5× for a 12-MP photo), where it
    // measures as accurately as the default lanczos3 (npm run bench:accuracy) for less time.
    pipeline = pipeline.resize({ width: options.maxSide, height: options.maxSide, fit: 'inside', withoutEnlargement: true, kernel: 'linear' });
  }
  try {
    const { data, info } = await pipeline
      .flatten({ background: '#808080' })
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`unexpected ${info.channels} channels after conversion to sRGB`);
    const pixels = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const shrunk = info.width !== upright.width || info.height !== upright.height;
    return { data: pixels, width: info.width, height: info.height, channels: 3, ...(shrunk ? { original: upright } : {}) };
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw new ImageMeasurementError('image_too_large', 'The photo is too large.');
    }
    throw new ImageMeasurementError('truncated_image', 'The photo is damaged or incomplete.');
  }
}
