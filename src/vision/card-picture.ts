import sharp from 'sharp';
import type { DecodedImage } from './image.ts';

// The picture of the card the pages show in place of the photo (issue 35): the flattened, upright card the engine
// measured (630 × 880 at PICTURE_PX_PER_MM, perspective corrected, no table round it), as a JPEG, and a half-size copy
// for the collection's tiles and the portfolio's rows, which draw it 150 to 200 CSS pixels tall.

/**
 * A JPEG of a card's face: fine print stays legible; a sample card is 32 kB at 630 × 880 and its thumbnail 12 kB, both
 * encoded in about 10 ms (mozjpeg saved a quarter of the bytes for seven times the time, on every grading).
 */
const CARD_JPEG_QUALITY = 85;

/** The thumbnail's width: 315 × 440, sharp on a 2× screen for a tile up to 220 CSS pixels tall. */
export const CARD_THUMB_WIDTH = 315;

export interface CardPictureFiles {
  /** The whole flattened card, JPEG. */
  full: Uint8Array;
  /** The same at CARD_THUMB_WIDTH, JPEG. */
  thumb: Uint8Array;
}

const bytesOf = (buffer: Buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);

/** The JPEGs of the flattened card (interleaved RGB, as measureSideWithPicture hands it back). */
export async function encodeCardPicture(picture: DecodedImage): Promise<CardPictureFiles> {
  const { data, width, height, channels } = picture;
  const source = () => sharp(data, { raw: { width, height, channels } });
  const [full, thumb] = await Promise.all([
    source().jpeg({ quality: CARD_JPEG_QUALITY }).toBuffer(),
    source().resize({ width: CARD_THUMB_WIDTH }).jpeg({ quality: CARD_JPEG_QUALITY }).toBuffer(),
  ]);
  return { full: bytesOf(full), thumb: bytesOf(thumb) };
}
