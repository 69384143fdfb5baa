import sharp from 'sharp';
import type { Metadata } from 'sharp';
import { IMAGE_FORMATS_LABEL, sniffImageType, type ImageContentType } from '../contracts/image-formats.ts';
import { ImageMeasurementError } from './errors.ts';
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

/** sharp's name for each accepted format: what its header must say once the first bytes have been recognised. */
const SHARP_FORMAT: Record<ImageContentType, string> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'heif',
  'image/gif': 'gif',
};

const NOT_A_PHOTO = `The file is not a photo we can read (${IMAGE_FORMATS_LABEL}).`;

/**
 * Decodes a photo to upright 8-bit sRGB: EXIF orientation applied, CMYK and 16-bit converted, alpha flattened.
 * Every way a file can fail to be a usable photo is refused with its own ImageMeasurementError code.
 */
export async function decodeImage(bytes: Uint8Array, options: DecodeOptions): Promise<DecodedImage> {
  if (bytes.length === 0) throw new ImageMeasurementError('empty_image', 'The file is empty.');
  // The one list of formats (src/contracts/image-formats.ts): anything else (text, SVG, PDF, TIFF, HEIC) never
  // reaches a decoder.
  const sniffed = sniffImageType(bytes);
  if (sniffed === null) throw new ImageMeasurementError('not_an_image', NOT_A_PHOTO);

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
  if (width * height > options.maxPixels) {
    throw new ImageMeasurementError('image_too_large', `The photo is too large (${width} × ${height} pixels).`, {
      width,
      height,
      maxPixels: options.maxPixels,
    });
  }
  if ((metadata.pages ?? 1) > 1) throw new ImageMeasurementError('animated_image', 'Animated images cannot be graded: send a photo.');

  let pipeline = sharp(input, { failOn: 'error', limitInputPixels: options.maxPixels, autoOrient: true });
  if (options.maxSide !== undefined && Math.max(width, height) > options.maxSide) {
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
    // EXIF orientations 5 to 8 turn the photo a quarter: its upright width is the stored height.
    const quarterTurn = (metadata.orientation ?? 1) >= 5;
    const original = quarterTurn ? { width: height, height: width } : { width, height };
    const shrunk = info.width !== original.width || info.height !== original.height;
    return { data: pixels, width: info.width, height: info.height, channels: 3, ...(shrunk ? { original } : {}) };
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw new ImageMeasurementError('image_too_large', 'The photo is too large.');
    }
    throw new ImageMeasurementError('truncated_image', 'The photo is damaged or incomplete.');
  }
}
