import type { Point } from '../contracts/measurement.ts';
import type { DecodedImage } from './image.ts';

/** Warps the quad (source pixels, clockwise from top-left) to the upright card at 20 px/mm. */
export function flattenCard(_image: DecodedImage, _quad: Point[]): DecodedImage {
  throw new Error('flattenCard: not implemented yet');
}
