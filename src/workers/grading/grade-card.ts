import type { GradedCard } from '../../contracts/grading.ts';
import { measurementRefusalDetailsSchema } from '../../contracts/measurement.ts';
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
  /** Told how long each stage took, in seconds (decode, measure, grade, identify, annotate, total): for metrics. */
  observeStage?: (stage: GradingStage, seconds: number) => void;
}

export type GradingStage = 'decode' | 'measure' | 'grade' | 'identify' | 'annotate' | 'total';

/** Runs `work`, telling `observe` how long it took (when it succeeds). */
async function timed<T>(stage: GradingStage, observe: GradeCardDeps['observeStage'], work: () => Promise<T> | T): Promise<T> {
  const started = performance.now();
  const result = await work();
  observe?.(stage, (performance.now() - started) / 1000);
  return result;
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
  const { image, output } = await measureAt(bytes, maxSide, side, deps);
  // A card small in a large photo: measured again from a larger decode when the photo has the pixels, whether the
  // fast decode refused it as too small or measured it coarser than the photo allows.
  const reached = output.ok ? output.measurement.quality.sourcePxPerMm : output.code === 'card_too_small' ? refusalPxPerMm(output.details) : null;
  if (image.original !== undefined && reached !== null && reached > 0 && reached < MIN_CARD_PX_PER_MM) {
    const largerSide = Math.ceil((maxSide * MIN_CARD_PX_PER_MM) / reached);
    const again = await measureAt(bytes, largerSide, side, deps);
    return measuredOrRefused(again, side, twoSides);
  }
  return measuredOrRefused({ image, output }, side, twoSides);
}

interface Attempt {
  image: Pick<DecodedImage, 'width' | 'height' | 'original'>;
  output: MeasureSideOutput;
}

async function measureAt(bytes: Uint8Array, maxSide: number, side: SideName, deps: GradeCardDeps): Promise<Attempt> {
  let image: DecodedImage;
  try {
    image = await timed('decode', deps.observeStage, () => decodeImage(bytes, { maxPixels: deps.maxPixels, maxSide }));
  } catch (error) {
    if (error instanceof ImageMeasurementError) return { image: { width: 0, height: 0 }, output: { ok: false, code: error.code, message: error.message, details: error.details } };
    throw error;
  }
  const size = { width: image.width, height: image.height, original: image.original };
  const { cpuPool } = deps;
  if (!cpuPool) return { image: size, output: await timed('measure', deps.observeStage, () => measureSideOrRefuse({ image, side })) };
  // sharp's output lives in memory V8 cannot hand to another thread; one copy makes it movable.
  const data = new Uint8Array(image.data);
  const input: MeasureSideInput = { image: { ...image, data }, side };
  return { image: size, output: await timed('measure', deps.observeStage, () => cpuPool.run<MeasureSideOutput>(MEASURE_TASK, input, [data.buffer])) };
}

function measuredOrRefused({ image, output }: Attempt, side: SideName, twoSides: boolean): MeasuredSide {
  if (output.ok) return output;
  throw refusal(side, twoSides, output.code, output.message, inPhotoPixels(output.details, image));
}

function refusalPxPerMm(details: unknown): number | null {
  const parsed = measurementRefusalDetailsSchema.safeParse(details);
  return parsed.success ? parsed.data.pxPerMm : null;
}

/** A refusal's outline and resolution, from the decoded copy's pixels to the photo's own (as the user's browser shows it). */
function inPhotoPixels(details: unknown, image: Attempt['image']): unknown {
  const parsed = measurementRefusalDetailsSchema.safeParse(details);
  if (!parsed.success || image.original === undefined) return details;
  const scale = image.original.width / image.width;
  const found = parsed.data;
  return {
    ...found,
    photo: image.original,
    outline: found.outline === null ? null : found.outline.map((p) => ({ x: Math.round(p.x * scale * 10) / 10, y: Math.round(p.y * scale * 10) / 10 })),
    pxPerMm: found.pxPerMm === null ? null : Math.round(found.pxPerMm * scale * 10) / 10,
  };
}

function pictureOf(side: MeasuredSide): CardPicture {
  const { centering } = side.measurement;
  return centering.measurable ? { image: side.picture, innerFrame: centering.innerFrame } : { image: side.picture };
}

/** Grades one card from its photos; refuses with an ImageMeasurementError (its own code) what it cannot measure. */
export async function gradeCard(photos: { front: Uint8Array; back?: Uint8Array }, deps: GradeCardDeps): Promise<GradedPhotos> {
  return timed('total', deps.observeStage, () => gradePhotos(photos, deps));
}

async function gradePhotos(photos: { front: Uint8Array; back?: Uint8Array }, deps: GradeCardDeps): Promise<GradedPhotos> {
  const observe = deps.observeStage;
  const twoSides = photos.back !== undefined;
  const [front, back] = await Promise.all([
    measure(photos.front, 'front', twoSides, deps),
    photos.back ? measure(photos.back, 'back', twoSides, deps) : undefined,
  ]);
  const measurements = back ? { front: front.measurement, back: back.measurement } : { front: front.measurement };
  const grade = await timed('grade', observe, () => gradeMeasuredCard(measurements));

  const identifier = deps.identifier ?? noIdentifier;
  const [identification, [frontPng, backPng]] = await Promise.all([
    timed('identify', observe, () => identifier.identify(pictureOf(front), back ? pictureOf(back) : undefined)),
    timed('annotate', observe, () => Promise.all([annotateSide(front.picture, front.measurement), back ? annotateSide(back.picture, back.measurement) : undefined])),
  ]);
  return {
    card: describeGradedCard(grade, identification, measurements),
    annotated: backPng ? { front: frontPng, back: backPng } : { front: frontPng },
  };
}
