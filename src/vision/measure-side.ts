import type { SideMeasurement, SideName } from '../contracts/measurement.ts';
import type { DecodedImage } from './image.ts';

/** Finds the card in the photo and measures it; throws ImageMeasurementError when it cannot. Pure and synchronous. */
export function measureSide(_image: DecodedImage, _side: SideName): SideMeasurement {
  throw new Error('measureSide: not implemented yet');
}
