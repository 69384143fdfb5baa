// The vision layer (GRADING.md §1): decode a photo, find and flatten the card, measure it. No grades here.
export type { DecodedImage } from './image.ts';
export { ImageMeasurementError } from './errors.ts';
export { decodeImage, displayCopy } from './decode.ts';
export { decodeHeic } from './heic.ts';
export type { RgbaPixels } from './heic.ts';
export type { DecodeOptions } from './decode.ts';
export { measureSide, measureSideWithPicture } from './measure-side.ts';
export type { MeasuredSide } from './measure-side.ts';
export { renderSyntheticCard } from './synthetic/render.ts';
export type { SyntheticBorders, SyntheticCardSpec, SyntheticDefect, SyntheticLettering, SyntheticSlab } from './synthetic/spec.ts';
export { findSlabLabel, findSlabLabelInPhoto } from './slab-label.ts';
export type { GreyImage } from './slab-label.ts';
export { CARD_THUMB_WIDTH, encodeCardPicture } from './card-picture.ts';
export type { CardPictureFiles } from './card-picture.ts';
