import { errorBodySchema } from '@contracts/errors';
import { IMAGE_FORMATS_LABEL } from '@contracts/image-formats';
import { type MeasurementErrorCode, measurementErrorCodeSchema, type MeasurementRefusalDetails, measurementRefusalDetailsSchema } from '@contracts/measurement';
import { ApiError } from '@/lib/api-client';
import type { GradingInput } from './api';

/** A photo the engine refused, with what it found, for the grade screen to show on the photo itself. */
export type Refusal = {
  code: MeasurementErrorCode;
  /** The server's sentence, as it says it. */
  message: string;
  side: 'front' | 'back';
  /** What the engine found (outline, px/mm, cut sides), when the refusal carries it. */
  details: MeasurementRefusalDetails | null;
  /** The refused photo: the file chosen or taken, or the URL pasted. */
  photo: { file: File } | { url: string } | null;
  tip: string;
};

/** One thing to do differently for the retake, per refusal. */
export const RETAKE_TIP: Record<MeasurementErrorCode, string> = {
  card_cut_off: 'Step back or zoom out until there is a strip of background on every side of the card.',
  card_too_small: 'Move closer so the card fills most of the photo, or take it at your camera’s full resolution.',
  no_card_found: 'Lay the card on a plain surface whose colour differs from the card’s border.',
  not_card_shaped: 'Hold the camera straight above the card, so its corners look square in the photo.',
  card_edge_unseen: 'Put the card on a darker surface.',
  blank_image: 'Check that nothing covers the lens and that the card is lit.',
  empty_image: 'Choose the photo again: the file that arrived was empty.',
  truncated_image: 'Choose the photo again: the file that arrived was incomplete.',
  not_an_image: `Choose a photo saved as ${IMAGE_FORMATS_LABEL}.`,
  animated_image: 'Choose a still photo rather than an animation.',
  image_too_large: 'Choose a smaller photo, or take it at a lower resolution.',
};

function sidePhoto(input: GradingInput, side: 'front' | 'back'): Refusal['photo'] {
  if (input.mode === 'urls') {
    const url = (side === 'front' ? input.frontUrl : input.backUrl).trim();
    return url ? { url } : null;
  }
  const file = side === 'front' ? input.front : input.back;
  return file ? { file } : null;
}

function samePhoto(a: Refusal['photo'], b: Refusal['photo']): boolean {
  if (a === null || b === null) return a === b;
  if ('file' in a) return 'file' in b && a.file === b.file;
  return 'url' in b && a.url === b.url;
}

/**
 * The refusal of the last grading, while the photos it refused are still the ones on screen: a new photo on either
 * side (or a change of tab to other photos) makes it go.
 */
export function refusalOf(error: unknown, graded: GradingInput | undefined, current: GradingInput): Refusal | null {
  if (!(error instanceof ApiError) || !graded) return null;
  let body: unknown;
  try {
    body = JSON.parse(error.body);
  } catch {
    return null;
  }
  const parsed = errorBodySchema.safeParse(body);
  if (!parsed.success) return null;
  const code = measurementErrorCodeSchema.safeParse(parsed.data.code);
  if (!code.success) return null;
  const details = measurementRefusalDetailsSchema.safeParse(parsed.data.details);
  const side = details.success ? (details.data.side ?? 'front') : 'front';
  const sameMode = (graded.mode === 'urls') === (current.mode === 'urls');
  if (!sameMode || !samePhoto(sidePhoto(graded, 'front'), sidePhoto(current, 'front')) || !samePhoto(sidePhoto(graded, 'back'), sidePhoto(current, 'back'))) {
    return null;
  }
  return {
    code: code.data,
    message: parsed.data.error,
    side,
    details: details.success ? details.data : null,
    photo: sidePhoto(current, side),
    tip: RETAKE_TIP[code.data],
  };
}
