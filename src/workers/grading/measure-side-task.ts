import { move, transferableSymbol, valueSymbol } from 'piscina';
import { sniffImageType } from '../../contracts/image-formats.ts';
import { measurementRefusalDetailsSchema, type MeasurementErrorCode, type Point, type SideMeasurement, type SideName } from '../../contracts/measurement.ts';
import { annotateSide } from '../../vision/annotate.ts';
import { decodeHeic, decodeImage, displayCopy, encodeCardPicture, findSlabLabel, ImageMeasurementError, measureSideWithPicture } from '../../vision/index.ts';
import type { CardPictureFiles, DecodedImage, GreyImage, MeasuredSide, RgbaPixels } from '../../vision/index.ts';
import { lowerThisThreadsPriority } from '../../infra/cpu-pool/thread-priority.ts';

// One side of a card, all its pixel work in one task off the event loop: the photo decoded (sharp; libheif for HEIC),
// the card found and measured (the vision layer), and its annotated picture drawn. Only the compressed photo goes in
// and only the card's picture (for identification), the annotated PNG (and a HEIC's JPEG copy) come out, so the
// megabytes of decoded pixels are allocated, read and dropped on the worker's heap: on the main thread they made a
// full garbage collection per card, a pause every request waited behind. Errors cross the thread boundary as data,
// because a thrown ImageMeasurementError would arrive as a plain Error without its code.

/**
 * A card that small in the photo is measured from a larger decode, when the photo has the pixels: a 12-MP photo
 * with the card across less than 60% of its height would otherwise be measured at under 11 px/mm, and told to
 * move closer although it was sharp enough.
 */
const MIN_CARD_PX_PER_MM = 11;

export interface MeasureSideInput {
  /** The photo file as sent. */
  bytes: Uint8Array;
  side: SideName;
  maxPixels: number;
  /** Decoded with its longer side at most this (a larger decode when the card is small in it). */
  maxSide: number;
}

/** How long each stage took, in seconds: decode (the larger one included), measure, annotate. */
export interface SideTimings {
  decode: number;
  measure: number;
  annotate: number;
}

export type MeasureSideOutput =
  | {
      ok: true;
      measurement: SideMeasurement;
      picture: DecodedImage;
      annotated: Uint8Array;
      /** The flattened card as the pages show it in place of the photo (JPEG, and its thumbnail). */
      cardPicture: CardPictureFiles;
      label: GreyImage | null;
      /** A JPEG of the photo when browsers cannot draw the file itself (HEIC), for the pages that show it. */
      display?: Uint8Array;
      timings: SideTimings;
    }
  | { ok: false; code: MeasurementErrorCode; message: string; details: unknown; timings: SideTimings };

type Refusal = Extract<MeasureSideOutput, { ok: false }>;

interface Attempt {
  image: Pick<DecodedImage, 'width' | 'height' | 'original'>;
  measured: MeasuredSide | Omit<Refusal, 'timings'>;
  /** A slabbed card's label, above the card on the front; null for a raw card. */
  label?: GreyImage | null;
}

/** Decodes, measures (again from a larger decode when the card is small in the photo) and annotates one side. */
export async function measureSideOrRefuse(input: MeasureSideInput): Promise<MeasureSideOutput> {
  const timings: SideTimings = { decode: 0, measure: 0, annotate: 0 };
  // A HEIC is decoded once (libheif, slower than sharp): both attempts and the copy shown in browsers read its pixels.
  let photo: Uint8Array | RgbaPixels = input.bytes;
  // A HEIC's JPEG copy for the pages is encoded by sharp's threads while this one measures (issue 35: a HEIC's
  // upload to result within twice a JPEG's), not after it.
  let displaying: Promise<Uint8Array> | undefined;
  if (sniffImageType(input.bytes) === 'image/heic') {
    const started = performance.now();
    try {
      photo = await decodeHeic(input.bytes, input.maxPixels);
      displaying = displayCopy(photo);
      // Awaited only for a photo that is graded; a refused one's copy is dropped, its failure with it.
      displaying.catch(() => undefined);
    } catch (error) {
      if (error instanceof ImageMeasurementError) return { ...refusalOf(error), timings };
      throw error;
    } finally {
      timings.decode += (performance.now() - started) / 1000;
    }
  }
  async function attempt(maxSide: number, cardNear?: (image: DecodedImage) => Point[]): Promise<Attempt> {
    let image: DecodedImage;
    let started = performance.now();
    try {
      image = await decodeImage(photo, { maxPixels: input.maxPixels, maxSide });
    } catch (error) {
      if (error instanceof ImageMeasurementError) return { image: { width: 0, height: 0 }, measured: refusalOf(error) };
      throw error;
    } finally {
      timings.decode += (performance.now() - started) / 1000;
    }
    started = performance.now();
    try {
      const measured = measureSideWithPicture(image, input.side, cardNear?.(image));
      return { image, measured, label: input.side === 'front' ? findSlabLabel(image, measured.measurement.quad) : null };
    } catch (error) {
      if (error instanceof ImageMeasurementError) return { image, measured: refusalOf(error) };
      throw error;
    } finally {
      timings.measure += (performance.now() - started) / 1000;
    }
  }

  let { image, measured, label } = await attempt(input.maxSide);
  // A card small in a large photo: measured again from a larger decode when the photo has the pixels, whether the
  // fast decode refused it as too small or measured it coarser than the photo allows.
  const reached = 'measurement' in measured ? measured.measurement.quality.sourcePxPerMm : measured.code === 'card_too_small' ? refusalPxPerMm(measured.details) : null;
  if (image.original !== undefined && reached !== null && reached > 0 && reached < MIN_CARD_PX_PER_MM) {
    // A card measured already is refined on the larger decode, not looked for again (find-card.ts, cardNear).
    const found = 'measurement' in measured ? { quad: measured.measurement.quad, width: image.width } : null;
    const scaled = found === null ? undefined : (larger: DecodedImage) => found.quad.map((p) => ({ x: (p.x * larger.width) / found.width, y: (p.y * larger.width) / found.width }));
    ({ image, measured, label } = await attempt(Math.ceil((input.maxSide * MIN_CARD_PX_PER_MM) / reached), scaled));
  }
  if (!('measurement' in measured)) return { ...measured, details: inPhotoPixels(measured.details, image), timings };
  let started = performance.now();
  // The plain card is drawn beside the annotated one: both are pictures made from the same pixels.
  const [annotated, cardPicture] = await Promise.all([annotateSide(measured.picture, measured.measurement), encodeCardPicture(measured.picture)]);
  timings.annotate = (performance.now() - started) / 1000;
  const side = { measurement: measured.measurement, picture: measured.picture, annotated, cardPicture, label: label ?? null };
  if (!displaying) return { ok: true, ...side, timings };
  // Counted as decoding: it is the rest of what reading a HEIC costs (the wait left once measuring is done).
  started = performance.now();
  const display = await displaying;
  timings.decode += (performance.now() - started) / 1000;
  return { ok: true, ...side, display, timings };
}

function refusalOf(error: ImageMeasurementError): Omit<Refusal, 'timings'> {
  return { ok: false, code: error.code, message: error.message, details: error.details };
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

// In a pool thread: below the event loop's priority, so a request never waits for pixel work to yield the core.
lowerThisThreadsPriority();

/** Piscina task: the photo comes in transferred; the card's pixels and JPEGs, the annotated PNG and any label go back transferred. */
export default async function measureSideTask(input: MeasureSideInput) {
  const output = await measureSideOrRefuse(input);
  if (!output.ok) return output;
  // sharp's buffers live in memory V8 cannot hand to another thread: one copy of each file (not of the pixels)
  // makes it movable.
  const annotated = new Uint8Array(output.annotated);
  const cardPicture = { full: new Uint8Array(output.cardPicture.full), thumb: new Uint8Array(output.cardPicture.thumb) };
  const display = output.display && new Uint8Array(output.display);
  const movable = { ...output, annotated, cardPicture, ...(display ? { display } : {}) };
  return move({
    get [transferableSymbol]() {
      return [
        movable.picture.data.buffer,
        annotated.buffer,
        cardPicture.full.buffer,
        cardPicture.thumb.buffer,
        ...(movable.label ? [movable.label.data.buffer] : []),
        ...(display ? [display.buffer] : []),
      ];
    },
    get [valueSymbol]() {
      return movable;
    },
  });
}
