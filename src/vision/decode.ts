import type { DecodedImage } from './image.ts';

export interface DecodeOptions {
  /** Refuse images with more pixels than this (decompression bombs), before decoding them. */
  maxPixels: number;
  /** Shrink on load so the longer side is at most this; measuring needs ~20 px/mm over the card. */
  maxSide?: number;
}

export async function decodeImage(_bytes: Uint8Array, _options: DecodeOptions): Promise<DecodedImage> {
  throw new Error('decodeImage: not implemented yet');
}
