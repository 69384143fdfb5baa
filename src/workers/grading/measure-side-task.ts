import { move, transferableSymbol, valueSymbol } from 'piscina';
import type { MeasurementErrorCode, SideMeasurement, SideName } from '../../contracts/measurement.ts';
import { flattenCard, ImageMeasurementError, measureSide } from '../../vision/index.ts';
import type { DecodedImage } from '../../vision/index.ts';

// One side's pixel work, off the event loop: the vision layer's measurement, then the flattened card the
// annotated picture and OCR are made from. Errors cross the thread boundary as data, because a thrown
// ImageMeasurementError would arrive as a plain Error without its code.

export interface MeasureSideInput {
  image: DecodedImage;
  side: SideName;
}

export type MeasureSideOutput =
  | { ok: true; measurement: SideMeasurement; flat: DecodedImage }
  | { ok: false; code: MeasurementErrorCode; message: string; details: unknown };

export function measureAndFlatten({ image, side }: MeasureSideInput): MeasureSideOutput {
  try {
    const measurement = measureSide(image, side);
    return { ok: true, measurement, flat: flattenCard(image, measurement.quad) };
  } catch (error) {
    if (error instanceof ImageMeasurementError) return { ok: false, code: error.code, message: error.message, details: error.details };
    throw error;
  }
}

/** Piscina task: the decoded pixels come in transferred, the flattened card goes back transferred. */
export default function measureSideTask(input: MeasureSideInput) {
  const output = measureAndFlatten(input);
  if (!output.ok) return output;
  return move({
    get [transferableSymbol]() {
      return [output.flat.data.buffer];
    },
    get [valueSymbol]() {
      return output;
    },
  });
}
