// Turning what tesseract read into a card name and a collector number. Pure string work, tested on its own.

export interface ReadWord {
  text: string;
  confidence: number;
  /** Height of the word's box in pixels: the name is the largest lettering in its band. */
  height: number;
  line: number;
}

/** Words tesseract is unsure of are noise from the art more often than text. */
const MIN_WORD_CONFIDENCE = 55;
/** Smaller lettering in the band (stage, HP) is not the name. */
const NAME_HEIGHT_SHARE = 0.7;

function cleanWord(text: string): string {
  return text
    .replace(/[‘’`]/g, "'")
    .replace(/[^\p{L}\p{N}'.&:-]/gu, '')
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}.']+$/gu, '');
}

/** The name: the tallest confident words on their line, without HP figures. Null when nothing reads as a name. */
export function nameFromWords(words: readonly ReadWord[]): string | null {
  const candidates = words
    .map((w) => ({ ...w, text: cleanWord(w.text) }))
    .filter((w) => w.confidence >= MIN_WORD_CONFIDENCE && /\p{L}/u.test(w.text) && !/^hp$/i.test(w.text));
  if (candidates.length === 0) return null;
  const tallest = Math.max(...candidates.map((w) => w.height));
  const large = candidates.filter((w) => w.height >= NAME_HEIGHT_SHARE * tallest);
  const line = large[0]!.line;
  const name = large
    .filter((w) => w.line === line)
    .map((w) => w.text)
    .join(' ');
  return (name.match(/\p{L}/gu) ?? []).length >= 3 ? name : null;
}

/** "58/102", "058/102", "SWSH050", "LOB-EN001"; the first that reads, else null. */
export function collectorNumberFromText(text: string): string | null {
  const fraction = text.match(/(?<![\p{L}\p{N}])([A-Z]{0,3}\d{1,3})\s*\/\s*([A-Z]{0,3}\d{1,3})(?![\p{N}])/u);
  if (fraction) return `${fraction[1]}/${fraction[2]}`;
  const setCode = text.match(/(?<![\p{L}\p{N}])([A-Z0-9]{2,5}-[A-Z]{0,2}\d{2,4})(?![\p{L}\p{N}])/u);
  if (setCode) return setCode[1]!;
  const promo = text.match(/(?<![\p{L}\p{N}])([A-Z]{2,5}\d{2,3})(?![\p{L}\p{N}])/u);
  return promo ? promo[1]! : null;
}
