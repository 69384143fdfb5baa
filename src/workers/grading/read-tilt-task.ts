import { move, transferableSymbol, valueSymbol } from 'piscina';
import type { CardFormatId } from '../../contracts/measurement.ts';
import { lowerThisThreadsPriority } from '../../infra/cpu-pool/thread-priority.ts';
import { CARD_FORMATS } from '../../vision/card-formats.ts';
import { decodeImage, ImageMeasurementError } from '../../vision/index.ts';
import type { DecodedImage } from '../../vision/index.ts';
import { readTiltShot, reflectedLightPicture } from '../../vision/tilt-shot.ts';
import type { TiltReading } from '../../vision/tilt-shot.ts';

// A tilt shot's pixel work in one task off the event loop, as a side's is (measure-side-task.ts): the frames decoded,
// registered to the card and read for the light's movement, and the picture of the reflected light drawn. A frame
// that cannot be decoded is left out like one without a card: the reading says how many frames showed the card.

export interface ReadTiltInput {
  /** The sequence's files: the front photo first, then the tilt frames (or the one angled photo). */
  frames: Uint8Array[];
  /** The front's format: every frame is flattened to it. */
  format: CardFormatId;
  maxPixels: number;
  maxSide: number;
}

export interface ReadTiltOutput {
  reading: Omit<TiltReading, 'light'>;
  /** PNG of the reflected light with what was found boxed; null when the shot was not read. */
  picture: Uint8Array | null;
  seconds: number;
}

export async function readTilt(input: ReadTiltInput): Promise<ReadTiltOutput> {
  const started = performance.now();
  const decoded = await Promise.all(input.frames.map((bytes) => decodeImage(bytes, { maxPixels: input.maxPixels, maxSide: input.maxSide }).catch(notAFrame)));
  const format = CARD_FORMATS.find((f) => f.id === input.format)!;
  const frames = decoded.filter((frame): frame is DecodedImage => frame !== null);
  // A frame that did not decode was sent all the same: it counts among those sent.
  const { light, ...reading } = readTiltShot(frames, format, input.frames.length);
  const picture = light ? await reflectedLightPicture(light, reading.defects) : null;
  return { reading, picture, seconds: (performance.now() - started) / 1000 };
}

function notAFrame(error: unknown): null {
  if (error instanceof ImageMeasurementError) return null;
  throw error;
}

lowerThisThreadsPriority();

/** Piscina task: the frames come in transferred; the reading and the picture go back, the picture transferred. */
export default async function readTiltTask(input: ReadTiltInput) {
  const output = await readTilt(input);
  const picture = output.picture && new Uint8Array(output.picture);
  const movable = { ...output, picture };
  return move({
    get [transferableSymbol]() {
      return picture ? [picture.buffer] : [];
    },
    get [valueSymbol]() {
      return movable;
    },
  });
}
