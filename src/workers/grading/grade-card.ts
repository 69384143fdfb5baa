import type { GradedCard } from '../../contracts/grading.ts';
import { measuredCardSize } from '../../contracts/measurement.ts';
import type { SideMeasurement, SideName } from '../../contracts/measurement.ts';
import { describeGradedCard, gradeCard as gradeMeasuredCard } from '../../domain/grading/index.ts';
import type { CpuPool } from '../../infra/cpu-pool/index.ts';
import type { CardIdentifier, CardPicture } from '../../infra/identification/index.ts';
import type { SlabLabelReader } from '../../infra/identification/slab-label-reader.ts';
import { noIdentifier } from '../../infra/identification/index.ts';
import { ImageMeasurementError } from '../../vision/index.ts';
import type { CardPictureFiles, DecodedImage, GreyImage } from '../../vision/index.ts';
import { measureSideOrRefuse } from './measure-side-task.ts';
import type { MeasureSideInput, MeasureSideOutput } from './measure-side-task.ts';
import { withTiltShot } from '../../vision/tilt-shot.ts';
import { readTilt } from './read-tilt-task.ts';
import type { ReadTiltInput, ReadTiltOutput } from './read-tilt-task.ts';

// The grading service: photo bytes in, the graded card, its annotated pictures and the flattened card out.
// Each side's pixel work (decode, measure, annotate) is one task in the CPU pool, so front and back are done at the
// same time and the decoded pixels never reach the event loop's heap; the grade is the pure domain's;
// identification reads the card's picture.

/**
 * Photos are decoded with their longer side at most this: a 12-MP phone photo (4032 px) then decodes at half
 * scale inside the JPEG decoder (sharp does so from a 3× reduction on), in half the time of a full decode, and still
 * gives the card about 11.5 px/mm, at which measuring is as accurate (test/vision/centering.test.ts).
 */
export const MEASURE_MAX_SIDE = 1344;

/**
 * A tilt shot's frames are decoded with their longer side at most this: a card filling the camera's guide then has
 * about 9 px/mm, its glints are read at the picture's 10 px/mm anyway, and finding the card in each of a dozen frames,
 * most of the shot's cost, takes some 40% less than at MEASURE_MAX_SIDE.
 */
const TILT_MAX_SIDE = 1024;

const MEASURE_TASK = new URL('./measure-side-task.ts', import.meta.url);
const TILT_TASK = new URL('./read-tilt-task.ts', import.meta.url);

export interface GradeCardDeps {
  /** Without a pool the pixel work runs on this thread (the CLI, tests). */
  cpuPool?: CpuPool;
  /** Default: none (source 'none'). */
  identifier?: CardIdentifier;
  /** Reads a slabbed card's label (grader, grade, descriptor, cert); without one, every card is graded as raw. */
  labelReader?: SlabLabelReader;
  maxPixels: number;
  maxSide?: number;
  /** Told how long each stage took, in seconds (decode, measure, grade, identify, label, annotate, total): for metrics. */
  observeStage?: (stage: GradingStage, seconds: number) => void;
}

export type GradingStage = 'decode' | 'measure' | 'tilt' | 'grade' | 'identify' | 'label' | 'annotate' | 'total';

/** The photos of one card: the front, the back, and a tilt shot of the front (its frames, or one angled photo). */
export interface CardPhotos {
  front: Uint8Array;
  back?: Uint8Array;
  /** The frames after the front photo: read with it as one sequence (issue 31). */
  tilt?: Uint8Array[];
}

/** Runs `work`, telling `observe` how long it took (when it succeeds). */
async function timed<T>(stage: GradingStage, observe: GradeCardDeps['observeStage'], work: () => Promise<T> | T): Promise<T> {
  const started = performance.now();
  const result = await work();
  observe?.(stage, (performance.now() - started) / 1000);
  return result;
}

export interface GradedPhotos {
  card: GradedCard;
  /** The annotated pictures, PNG; `reflectedLight`, the tilt shot's, when one was read. */
  annotated: { front: Uint8Array; back?: Uint8Array; reflectedLight?: Uint8Array };
  /** JPEG copies of the photos browsers cannot draw (HEIC), for the pages that show them. */
  display: { front?: Uint8Array; back?: Uint8Array };
  /** The flattened card of each side, JPEG with its thumbnail: what the pages show in place of the photo. */
  pictures: { front: CardPictureFiles; back?: CardPictureFiles };
}

interface GradedSide {
  measurement: SideMeasurement;
  picture: DecodedImage;
  annotated: Uint8Array;
  cardPicture: CardPictureFiles;
  label: GreyImage | null;
  display?: Uint8Array;
}

const SIDE_NAME: Record<SideName, string> = { front: 'Front', back: 'Back' };

/** One side's decode, measurement and annotated picture; refusals keep their code, and with two photos say which one. */
async function gradeSide(bytes: Uint8Array, side: SideName, twoSides: boolean, deps: GradeCardDeps): Promise<GradedSide> {
  const input: MeasureSideInput = { bytes, side, maxPixels: deps.maxPixels, maxSide: deps.maxSide ?? MEASURE_MAX_SIDE };
  let output: MeasureSideOutput;
  if (deps.cpuPool) {
    // A copy of the file moves to the pool thread; the caller keeps its own (to store and hash). Not bytes.slice():
    // on a Buffer that is a view of the same memory, and moving it would take the caller's bytes away.
    const copy = new Uint8Array(bytes);
    output = await deps.cpuPool.run<MeasureSideOutput>(MEASURE_TASK, { ...input, bytes: copy }, [copy.buffer]);
  } else {
    output = await measureSideOrRefuse(input);
  }
  for (const stage of ['decode', 'measure', 'annotate'] as const) if (output.ok || stage !== 'annotate') deps.observeStage?.(stage, output.timings[stage]);
  if (!output.ok) {
    const text = twoSides ? `${SIDE_NAME[side]} photo: ${output.message}` : output.message;
    const extra = output.details && typeof output.details === 'object' ? output.details : {};
    throw new ImageMeasurementError(output.code, text, { ...extra, side });
  }
  return output;
}

function pictureOf(side: GradedSide): CardPicture {
  const { centering } = side.measurement;
  const cardSize = measuredCardSize(side.measurement);
  return centering.measurable ? { image: side.picture, cardSize, innerFrame: centering.innerFrame } : { image: side.picture, cardSize };
}

/** Grades one card from its photos; refuses with an ImageMeasurementError (its own code) what it cannot measure. */
export async function gradeCard(photos: CardPhotos, deps: GradeCardDeps): Promise<GradedPhotos> {
  return timed('total', deps.observeStage, () => gradePhotos(photos, deps));
}

/** The front and its tilt shot: the frames read once the front's format is known, the front's surface joined with them. */
async function gradeFront(photos: CardPhotos, twoSides: boolean, deps: GradeCardDeps): Promise<GradedSide & { reflectedLight?: Uint8Array }> {
  const front = await gradeSide(photos.front, 'front', twoSides, deps);
  if (!photos.tilt?.length) return front;
  const maxSide = Math.min(deps.maxSide ?? MEASURE_MAX_SIDE, TILT_MAX_SIDE);
  const input: ReadTiltInput = { frames: [photos.front, ...photos.tilt], format: front.measurement.cardFormat?.id ?? 'standard', maxPixels: deps.maxPixels, maxSide };
  let output: ReadTiltOutput;
  if (deps.cpuPool) {
    // Copies move to the pool thread; the caller keeps its own, as for a side.
    const frames = input.frames.map((bytes) => new Uint8Array(bytes));
    output = await deps.cpuPool.run<ReadTiltOutput>(TILT_TASK, { ...input, frames }, frames.map((frame) => frame.buffer));
  } else {
    output = await readTilt(input);
  }
  deps.observeStage?.('tilt', output.seconds);
  const measurement = withTiltShot(front.measurement, output.reading);
  return { ...front, measurement, ...(output.picture ? { reflectedLight: output.picture } : {}) };
}

async function gradePhotos(photos: CardPhotos, deps: GradeCardDeps): Promise<GradedPhotos> {
  const observe = deps.observeStage;
  const twoSides = photos.back !== undefined;
  const [front, back] = await Promise.all([gradeFront(photos, twoSides, deps), photos.back ? gradeSide(photos.back, 'back', twoSides, deps) : undefined]);
  const measurements = back ? { front: front.measurement, back: back.measurement } : { front: front.measurement };
  const grade = await timed('grade', observe, () => gradeMeasuredCard(measurements));
  const identifier = deps.identifier ?? noIdentifier;
  // A slab's label is read beside identification (each has its own OCR worker); the engine's grade stays the card's own.
  const { labelReader } = deps;
  const { label } = front;
  const [identification, slabLabel] = await Promise.all([
    timed('identify', observe, () => identifier.identify(pictureOf(front), back ? pictureOf(back) : undefined)),
    label && labelReader ? timed('label', observe, () => labelReader.read(label)) : null,
  ]);
  const card = describeGradedCard(grade, identification, measurements, slabLabel);
  return {
    card,
    annotated: { front: front.annotated, ...(back ? { back: back.annotated } : {}), ...(front.reflectedLight ? { reflectedLight: front.reflectedLight } : {}) },
    display: { ...(front.display ? { front: front.display } : {}), ...(back?.display ? { back: back.display } : {}) },
    pictures: back ? { front: front.cardPicture, back: back.cardPicture } : { front: front.cardPicture },
  };
}
