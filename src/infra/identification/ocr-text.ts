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

/** Letters tesseract reads for digits in small bold print: "os5/149" is 055/149. */
const DIGIT_LOOKALIKES: Record<string, string> = { o: '0', O: '0', D: '0', s: '5', S: '5', l: '1', I: '1', '|': '1', B: '8', Z: '2', z: '2' };

/**
 * The number once more, for a word that mixes digits with their look-alikes: "os5/149" as 055/149, and seven digits
 * where a zero-padded `ddd/ddd` lost its slash to a 1 or a 7 ("1131185" as 113/185).
 */
function misreadNumber(text: string): string | null {
  for (const word of text.split(/\s+/)) {
    if (!/\d/.test(word) || word.length < 3) continue;
    const digits = [...word].map((c) => DIGIT_LOOKALIKES[c] ?? c).join('');
    const fraction = /^(\d{1,3})\/(\d{2,3})$/.exec(digits);
    if (fraction) return `${fraction[1]}/${fraction[2]}`;
    const slashless = /^(\d{3})[17](\d{3})$/.exec(digits);
    if (slashless) return `${slashless[1]}/${slashless[2]}`;
  }
  return null;
}

/** "58/102", "058/102", "SWSH050", "LOB-EN001"; the first that reads, else null. */
export function collectorNumberFromText(text: string): string | null {
  const fraction = text.match(/(?<![\p{L}\p{N}])([A-Z]{0,3}\d{1,3})\s*\/\s*([A-Z]{0,3}\d{1,3})(?![\p{N}])/u);
  if (fraction) return `${fraction[1]}/${fraction[2]}`;
  const misread = misreadNumber(text);
  if (misread) return misread;
  const setCode = text.match(/(?<![\p{L}\p{N}])([A-Z0-9]{2,5}-[A-Z]{0,2}\d{2,4})(?![\p{L}\p{N}])/u);
  if (setCode) return setCode[1]!;
  const promo = text.match(/(?<![\p{L}\p{N}])([A-Z]{2,5}\d{2,3})(?![\p{L}\p{N}])/u);
  return promo ? promo[1]! : null;
}

/** Words this unsure are still offered to the catalogue, which only takes a real card's name. */
const CANDIDATE_WORD_CONFIDENCE = 30;

/**
 * Every name the band might hold, for the catalogue to check: the name as nameFromWords reads it first, then each
 * line's run of words, each pair and each single word (a small header line, "Baby Pokémon counts as…", can be
 * the tallest thing tesseract saw). Without duplicates.
 */
export function nameCandidates(words: readonly ReadWord[]): string[] {
  const candidates: string[] = [];
  const add = (text: string) => {
    if ((text.match(/\p{L}/gu) ?? []).length >= 3 && !candidates.includes(text)) candidates.push(text);
  };
  const first = nameFromWords(words);
  if (first) add(first);
  const usable = words.map((w) => ({ ...w, text: cleanWord(w.text) })).filter((w) => w.confidence >= CANDIDATE_WORD_CONFIDENCE && w.text !== '' && !/^hp$/i.test(w.text));
  const lines = [...new Set(usable.map((w) => w.line))];
  for (const line of lines) {
    const onLine = usable.filter((w) => w.line === line).map((w) => w.text.replace(/\d+$/, '')).filter((t) => t !== '');
    add(onLine.join(' '));
    for (let i = 0; i + 1 < onLine.length; i++) add(`${onLine[i]} ${onLine[i + 1]}`);
    for (const word of onLine) add(word);
  }
  return candidates.slice(0, 24);
}

/** Upper-case tokens near the number that may be a set code ("SVI", "PAF") or a regulation mark; the catalogue decides. */
export function setCodesFromText(text: string): string[] {
  return [...new Set(text.match(/(?<![\p{L}\p{N}])[A-Z][A-Z0-9]{1,3}(?![\p{L}\p{N}])/gu) ?? [])];
}

/**
 * The regulation mark: a lone capital D to J just before the set code, language and collector number, as cards since
 * Sword & Shield print it ("G SVI EN 065/198", "E 030/203"); null when none reads so.
 */
export function regulationMarkFromText(text: string): string | null {
  const found = /(?<![\p{L}\p{N}|])([D-J|l])\s+(?:[A-Z]{2,4}\s+){0,2}[A-Z]{0,3}\d{1,3}\s*\/\s*[A-Z]{0,3}\d{1,3}(?!\p{N})/u.exec(text);
  if (!found) return null;
  return found[1] === '|' || found[1] === 'l' ? 'I' : found[1]!; // a lone I in its box reads as a bar
}
