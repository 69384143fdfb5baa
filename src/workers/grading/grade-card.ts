import type { GradedCard } from '../../contracts/grading.ts';
import type { SideMeasurement, SideName } from '../../contracts/measurement.ts';
import { describeGradedCard, gradeCard as gradeMeasuredCard } from '../../domain/grading/index.ts';
import type { CpuPool } from '../../infra/cpu-pool/index.ts';
import type { CardIdentifier, CardPicture } from '../../infra/identification/index.ts';
import { noIdentifier } from '../../infra/identification/index.ts';
import { annotateSide } from '../../vision/annotate.ts';
import { decodeImage, ImageMeasurementError } from '../../vision/index.ts';
import type { DecodedImage } from '../../vision/index.ts';
import { measureAndFlatten } from './measure-side-task.ts';
import type { MeasureSideInput, MeasureSideOutput } from './measure-side-task.ts';

// The grading service: photo bytes in, the graded card and its annotated pictures out.
// sharp decodes on libuv's threads; the pixel loops run in the CPU pool, one task per side, so front and back
// are measured at the same time; the grade is the pure domain's; identification and annotation run together.

/**
 * Photos are decoded with their longer side at most this: a 12-MP phone photo (4032 px) then decodes at half
 * scale inside the JPEG decoder, much faster than in full, and still gives the card about 17-20 px/mm.
 */
export const MEASURE_MAX_SIDE = 2016;

const MEASURE_TASK = new URL('./measure-side-task.ts', import.meta.url);

export interface GradeCardDeps {
  /** Without a pool the pixel work runs on this thread (the CLI, tests). */
  cpuPool?: CpuPool;
  /** Default: none (source 'none'). */
  identifier?: CardIdentifier;
  maxPixels: number;
  maxSide?: number;
}

export interface GradedPhotos {
  card: GradedCard;
  /** The annotated pictures, PNG. */
  annotated: { front: Uint8Array; back?: Uint8Array };
}

interface MeasuredSide {
  measurement: SideMeasurement;
  flat: DecodedImage;
}

const SIDE_NAME: Record<SideName, string> = { front: 'Front', back: 'Back' };

/** Refusals keep their code; with two photos the message says which one. */
function refusal(side: SideName, twoSides: boolean, code: ImageMeasurementError['code'], message: string, details: unknown) {
  const text = twoSides ? `${SIDE_NAME[side]} photo: ${message}` : message;
  const extra = details && typeof details === 'object' ? details : {};
  return new ImageMeasurementError(code, text, { ...extra, side });
}

async function measure(bytes: Uint8Array, side: SideName, twoSides: boolean, deps: GradeCardDeps): Promise<MeasuredSide> {
  let image: DecodedImage;
  try {
    image = await decodeImage(bytes, { maxPixels: deps.maxPixels, maxSide: deps.maxSide ?? MEASURE_MAX_SIDE });
  } catch (error) {
    if (error instanceof ImageMeasurementError) throw refusal(side, twoSides, error.code, error.message, error.details);
    throw error;
  }
  let output: MeasureSideOutput;
  if (deps.cpuPool) {
    // sharp's output lives in memory V8 cannot hand to another thread; one copy makes it movable.
    const data = new Uint8Array(image.data);
    const input: MeasureSideInput = { image: { ...image, data }, side };
    output = await deps.cpuPool.run<MeasureSideOutput>(MEASURE_TASK, input, [data.buffer]);
  } else {
    output = measureAndFlatten({ image, side });
  }
  if (!output.ok) throw refusal(side, twoSides, output.code, output.message, output.details);
  return output;
}

function pictureOf(side: MeasuredSide): CardPicture {
  const { centering } = side.measurement;
  return centering.measurable ? { image: side.flat, innerFrame: centering.innerFrame } : { image: side.flat };
}

/** Grades one card from its photos; refuses with an ImageMeasurementError (its own code) what it cannot measure. */
export async function gradeCard(photos: { front: Uint8Array; back?: Uint8Array }, deps: GradeCardDeps): Promise<GradedPhotos> {
  const twoSides = photos.back !== undefined;
  const [front, back] = await Promise.all([
    measure(photos.front, 'front', twoSides, deps),
    photos.back ? measure(photos.back, 'back', twoSides, deps) : undefined,
  ]);
  const measurements = back ? { front: front.measurement, back: back.measurement } : { front: front.measurement };
  const grade = gradeMeasuredCard(measurements);

  const identifier = deps.identifier ?? noIdentifier;
  const [identification, frontPng, backPng] = await Promise.all([
    identifier.identify(pictureOf(front), back ? pictureOf(back) : undefined),
    annotateSide(front.flat, front.measurement),
    back ? annotateSide(back.flat, back.measurement) : undefined,
  ]);
  return {
    card: describeGradedCard(grade, identification, measurements),
    annotated: backPng ? { front: frontPng, back: backPng } : { front: frontPng },
  };
}
