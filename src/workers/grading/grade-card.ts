import type { GradedCard } from '../../contracts/grading.ts';
import type { SideName } from '../../contracts/measurement.ts';
import { describeGradedCard, gradeCard as gradeMeasuredCard } from '../../domain/grading/index.ts';
import type { CpuPool } from '../../infra/cpu-pool/index.ts';
import type { CardIdentifier, CardPicture } from '../../infra/identification/index.ts';
import { noIdentifier } from '../../infra/identification/index.ts';
import { annotateSide } from '../../vision/annotate.ts';
import { decodeImage, ImageMeasurementError } from '../../vision/index.ts';
import type { DecodedImage, MeasuredSide } from '../../vision/index.ts';
import { measureSideOrRefuse } from './measure-side-task.ts';
import type { MeasureSideInput, MeasureSideOutput } from './measure-side-task.ts';

// The grading service: photo bytes in, the graded card and its annotated pictures out.
// sharp decodes on libuv's threads; the pixel loops run in the CPU pool, one task per side, so front and back
// are measured at the same time; the grade is the pure domain's; identification and annotation run together.

/**
 * Photos are decoded with their longer side at most this: a 12-MP phone photo (4032 px) then decodes at half
 * scale inside the JPEG decoder (sharp does so from a 3× reduction on), in half the time of a full decode, and still
 * gives the card about 11.5 px/mm, at which measuring is as accurate (test/vision/centering.test.ts).
 */
export const MEASURE_MAX_SIDE = 1344;
/**
 * A card that small in the photo is measured from a larger decode, when the photo has the pixels: a 12-MP photo
 * with the card across less than 60% of its height would otherwise be measured at under 11 px/mm, and told to
 * move closer although it was sharp enough.
 */
const MIN_CARD_PX_PER_MM = 11;

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

const SIDE_NAME: Record<SideName, string> = { front: 'Front', back: 'Back' };

/** Refusals keep their code; with two photos the message says which one. */
function refusal(side: SideName, twoSides: boolean, code: ImageMeasurementError['code'], message: string, details: unknown) {
  const text = twoSides ? `${SIDE_NAME[side]} photo: ${message}` : message;
  const extra = details && typeof details === 'object' ? details : {};
  return new ImageMeasurementError(code, text, { ...extra, side });
}

async function measure(bytes: Uint8Array, side: SideName, twoSides: boolean, deps: GradeCardDeps): Promise<MeasuredSide> {
  const maxSide = deps.maxSide ?? MEASURE_MAX_SIDE;
  const measured = await measureAt(bytes, maxSide, side, twoSides, deps);
  const { image, quality } = measured.measurement;
  const shrunk = Math.max(image.width, image.height) === maxSide;
  if (!shrunk || quality.sourcePxPerMm >= MIN_CARD_PX_PER_MM) return measured;
  return measureAt(bytes, Math.ceil((maxSide * MIN_CARD_PX_PER_MM) / quality.sourcePxPerMm), side, twoSides, deps);
}

async function measureAt(bytes: Uint8Array, maxSide: number, side: SideName, twoSides: boolean, deps: GradeCardDeps): Promise<MeasuredSide> {
  let image: DecodedImage;
  try {
    image = await decodeImage(bytes, { maxPixels: deps.maxPixels, maxSide });
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
    output = measureSideOrRefuse({ image, side });
  }
  if (!output.ok) throw refusal(side, twoSides, output.code, output.message, output.details);
  return output;
}

function pictureOf(side: MeasuredSide): CardPicture {
  const { centering } = side.measurement;
  return centering.measurable ? { image: side.picture, innerFrame: centering.innerFrame } : { image: side.picture };
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
    annotateSide(front.picture, front.measurement),
    back ? annotateSide(back.picture, back.measurement) : undefined,
  ]);
  return {
    card: describeGradedCard(grade, identification, measurements),
    annotated: backPng ? { front: frontPng, back: backPng } : { front: frontPng },
  };
}
