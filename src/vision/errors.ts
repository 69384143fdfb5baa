import { AppError } from '../contracts/errors.ts';
import type { ErrorKind } from '../contracts/errors.ts';
import type { MeasurementErrorCode } from '../contracts/measurement.ts';

const kindOf: Record<MeasurementErrorCode, ErrorKind> = {
  empty_image: 'unprocessable',
  not_an_image: 'unsupported',
  truncated_image: 'unprocessable',
  image_too_large: 'too_large',
  animated_image: 'unsupported',
  no_card_found: 'unprocessable',
  card_cut_off: 'unprocessable',
  card_too_small: 'unprocessable',
  not_card_shaped: 'unprocessable',
  card_edge_unseen: 'unprocessable',
  blank_image: 'unprocessable',
};

/** Why a photo cannot be measured; the message is shown to the user as is. */
export class ImageMeasurementError extends AppError {
  declare readonly code: MeasurementErrorCode;

  constructor(code: MeasurementErrorCode, message: string, details?: unknown) {
    super(kindOf[code], code, message, details);
    this.name = 'ImageMeasurementError';
  }
}
