import { z } from 'zod';
import { AppError } from './errors.ts';

// THE text rule at the edge: every string that comes in (JSON, form fields, query, path) goes through cleanText
// before its own rules. New routes wrap their string fields: `name: cleanText('name', z.string().max(255))`.
//
// It refuses what the database cannot store or a person cannot see (NUL and other control characters, lone UTF-16
// surrogates), normalises to NFC so the same word is stored one way, and takes out of every kept text (names, lines,
// free text: address lines, notes, import file names, ItemIDs) the invisible characters that reorder or hide it
// (bidirectional overrides, zero-width spaces): text that reads one way on screen and another in the bytes is how a
// name, an address or a file name is spoofed. Real scripts, accents, CJK, Arabic and emoji are kept (the zero-width
// joiner of emoji sequences and the non-joiner of Persian too). URLs refuse them instead; passwords keep them.

export type TextKind =
  /** One line of text: no control characters at all, invisible formatting taken out. */
  | 'line'
  /** Free text: tabs and line breaks allowed (CR LF becomes LF), invisible formatting taken out. */
  | 'multiline'
  /** A person's or a card's name: one line, invisible formatting taken out. */
  | 'name'
  /** A URL: one line, and nothing invisible in it (it is refused, never silently changed, before anything is fetched). */
  | 'url'
  /** A password: refused like a line, otherwise left exactly as typed (no normalisation: it is compared as given). */
  | 'secret';

// eslint-disable-next-line no-control-regex -- finding control characters is this rule's whole point
const CONTROL_EXCEPT_TAB_AND_LF = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;
const TAB_OR_LF = /[\t\n]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Bidirectional marks, embeddings, overrides and isolates; zero-width space; word joiner; byte-order mark. */
const INVISIBLE_FORMATTING = /[\u061C\u200B\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/g;

/** Why the text cannot be taken, or null. */
export function textProblem(value: string, kind: TextKind): string | null {
  if (LONE_SURROGATE.test(value)) return 'contains an invalid character (a broken Unicode sequence)';
  const text = kind === 'multiline' ? value.replace(/\r\n/g, '\n') : value;
  if (CONTROL_EXCEPT_TAB_AND_LF.test(text)) return 'contains a control character that is not allowed';
  if (kind !== 'multiline' && TAB_OR_LF.test(text)) return 'must be on one line';
  if (kind === 'url' && new RegExp(INVISIBLE_FORMATTING.source).test(text)) return 'contains invisible characters';
  return null;
}

/** The text as it is kept: NFC, line breaks as LF, no invisible formatting (URLs have none: it is refused); passwords as typed. */
export function normaliseText(value: string, kind: TextKind): string {
  if (kind === 'secret') return value;
  const text = (kind === 'multiline' ? value.replace(/\r\n/g, '\n') : value).normalize('NFC');
  return text.replace(INVISIBLE_FORMATTING, '');
}

/** The rule for a text that comes in outside a zod schema (a multipart file name): kept as normalised, or a 400 naming `label`. */
export function cleanedTextOrRefuse(value: string, kind: TextKind, label: string): string {
  const problem = textProblem(value, kind);
  if (problem !== null) throw new AppError('invalid', 'invalid_text', `${label} ${problem}.`);
  return normaliseText(value, kind);
}

/** `schema` with the text rule in front of it: strings are checked and normalised first, anything else goes on as is. */
export function cleanText<S extends z.ZodType>(kind: TextKind, schema: S) {
  return z.preprocess((value, ctx) => {
    if (typeof value !== 'string') return value;
    const problem = textProblem(value, kind);
    if (problem !== null) {
      ctx.addIssue({ code: 'custom', message: `This ${problem}` });
      return z.NEVER;
    }
    return normaliseText(value, kind);
  }, schema);
}
