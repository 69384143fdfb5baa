import { z } from 'zod';

/** What went wrong, in terms the HTTP layer maps to a status (one place: src/http/plugins/errors.ts). */
export type ErrorKind =
  | 'invalid' // 400
  | 'unauthorized' // 401
  | 'forbidden' // 403
  | 'not_found' // 404
  | 'conflict' // 409
  | 'too_large' // 413
  | 'unsupported' // 415
  | 'unprocessable' // 422
  | 'rate_limited' // 429
  | 'misdirected' // 421: a Host this server does not answer for
  | 'unavailable'; // 503

/**
 * An error meant for the user: its message is shown as is, its code is stable for clients and tests.
 * Anything else that is thrown is a bug and answers 500 without internals.
 */
export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly code: string;
  readonly details: unknown;

  constructor(kind: ErrorKind, code: string, message: string, details?: unknown) {
    super(message);
    this.name = 'AppError';
    this.kind = kind;
    this.code = code;
    this.details = details;
  }
}

/** Every error body (SPEC.md §7): the message in `error`, a stable `code` beside it. */
export const errorBodySchema = z.object({
  error: z.string(),
  code: z.string(),
  details: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

// System error codes a server may keep in a reason it recorded ("could not be reached (ENOTFOUND)"): the words
// around them say it already, and the code means nothing to a collector.
const SYSTEM_ERROR_CODE = /\s*\((?:E[A-Z0-9_]{3,}|UND_ERR_[A-Z_]+|ERR_[A-Z_]+)\)/g;

/** A reason in plain words: internal error codes taken out. */
export function plainReason(text: string): string {
  return text.replace(SYSTEM_ERROR_CODE, '');
}
