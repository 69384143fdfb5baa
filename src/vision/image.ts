/** Decoded pixels: 8-bit sRGB, interleaved RGB, rows top to bottom, already turned upright by EXIF orientation. */
export interface DecodedImage {
  data: Uint8Array;
  width: number;
  height: number;
  channels: 3;
}
