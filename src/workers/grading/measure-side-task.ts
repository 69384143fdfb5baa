import { move, transferableSymbol, valueSymbol } from 'piscina';
import type { MeasurementErrorCode, SideName } from '../../contracts/measurement.ts';
import { ImageMeasurementError, measureSideWithPicture } from '../../vision/index.ts';
import type { DecodedImage, MeasuredSide } from '../../vision/index.ts';

// One side's pixel work, off the event loop: the vision layer's measurement, and the picture of the card the
// annotated PNG and OCR are made from. Errors cross the thread boundary as data, because a thrown
// ImageMeasurementError would arrive as a plain Error without its code.

export interface MeasureSideInput {
  image: DecodedImage;
  side: SideName;
}

export type MeasureSideOutput =
  | ({ ok: true } & MeasuredSide)
  | { ok: false; code: MeasurementErrorCode; message: string; details: unknown };

export function measureSideOrRefuse({ image, side }: MeasureSideInput): MeasureSideOutput {
  try {
    return { ok: true, ...measureSideWithPicture(image, side) };
  } catch (error) {
    if (error instanceof ImageMeasurementError) return { ok: false, code: error.code, message: error.message, details: error.details };
    throw error;
  }
}

/** Piscina task: the decoded pixels come in transferred, the picture of the card goes back transferred. */
export default function measureSideTask(input: MeasureSideInput) {
  const output = measureSideOrRefuse(input);
  if (!output.ok) return output;
  return move({
    get [transferableSymbol]() {
      return [output.picture.data.buffer];
    },
    get [valueSymbol]() {
      return output;
    },
  });
}
