import { z } from 'zod';

// THE text rule at the edge: every string that comes in (JSON, form fields, query, path) goes through cleanText
// before its own rules. New routes wrap their string fields: `name: cleanText('name', z.string().max(255))`.
//
// It refuses what the database cannot store or a person cannot see (NUL and other control characters, lone UTF-16
// surrogates), normalises to NFC so the same word is stored one way, and takes out of names the invisible characters
// that reorder or hide text (bidirectional overrides, zero-width spaces). Names keep every real script, accents, CJK,
// Arabic and emoji (the zero-width joiner of emoji sequences and the non-joiner of Persian are kept).

export type TextKind =
  /** One line of text: no control characters at all. */
  | 'line'
  /** Free text: tabs and line breaks allowed (CR LF becomes LF). */
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

/** The text as it is kept: NFC, line breaks as LF, names without invisible formatting; passwords as typed. */
export function normaliseText(value: string, kind: TextKind): string {
  if (kind === 'secret') return value;
  const text = (kind === 'multiline' ? value.replace(/\r\n/g, '\n') : value).normalize('NFC');
  return kind === 'name' ? text.replace(INVISIBLE_FORMATTING, '') : text;
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
