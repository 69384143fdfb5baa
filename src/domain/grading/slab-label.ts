import type { GradingCompany, SlabLabel } from '../../contracts/grading.ts';

// A professional grader's slab label, as OCR read it: who graded the card, the grade, the words printed with it and
// the certification number. Pure text work: the label is found and read in src/infra/identification/slab-label-reader.ts.
// Two ways a label is recognised, and nothing is guessed beyond them (else the card counts as raw):
// - PSA's layout. A PSA label never prints "PSA" as text (its logo is a graphic): at its right it prints the
//   grade's words (MINT), the grade on the line below (9) and the 8–10 digit cert below that. The words and the
//   number must agree (MINT is 9, NM-MT is 8), and a cert must follow: card text (CHARIZARD EX, a collector number)
//   has no such column.
// - A grader's name (PSA, BGS or BECKETT, CGC, SGC, TAG, AGS) with a grade beside the words that go with it.

/** Digits OCR reads for letters of the same shape, inside a grader's name ("P5A", "8GS", "C6C"). */
const LETTER_FOR_DIGIT: Record<string, string> = { '0': 'O', '1': 'I', '4': 'A', '5': 'S', '6': 'G', '7': 'T', '8': 'B' };
/** Letters OCR reads for digits of the same shape, inside a grade ("1O", "l0", "9,5"). */
const DIGIT_FOR_LETTER: Record<string, string> = { O: '0', D: '0', I: '1', L: '1', '|': '1', S: '5', ',': '.' };

/** A grader's name as printed; BGS labels say BECKETT, long enough to allow one misread letter. */
const COMPANY_NAMES: Record<string, GradingCompany> = { PSA: 'PSA', BGS: 'BGS', BVG: 'BGS', CGC: 'CGC', SGC: 'SGC', TAG: 'TAG', AGS: 'AGS' };
const LONG_COMPANY_NAMES: Record<string, GradingCompany> = { BECKETT: 'BGS' };

/** The words printed beside a grade: GEM MT 10, MINT 9, NM-MT 8, 9.5 GEM MINT, PRISTINE 10. */
const GRADE_WORDS = new Set(['GEM', 'MT', 'MINT', 'NM', 'PRISTINE', 'PERFECT', 'GOOD', 'FAIR', 'FR', 'PR', 'POOR']);
/** EX and VG are also parts of card names (CHARIZARD EX): they count only when nothing stronger stands by a number. */
const WEAK_GRADE_WORDS = new Set(['EX', 'VG']);
const GLUED_GRADE_WORDS = new RegExp(`(${[...GRADE_WORDS].sort((a, b) => b.length - a.length).join('|')})(?=\\d|[A-Z]*\\d)`, 'g');
/** A BGS or CGC label's subgrades: the number after these is not the card's grade. */
const SUBGRADE_WORDS = new Set(['CENTERING', 'CENTER', 'CORNERS', 'EDGES', 'SURFACE', 'AUTO', 'AUTOGRAPH']);
/** A cert has at least this many digits: fewer is a year, a grade or a card number. */
const MIN_CERT_DIGITS = 4;
/** How many words from a grade word or the grader's name a grade may stand. */
const NEAR_WORDS = 2;

interface Word {
  text: string;
  line: number;
}

function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  text
    .toUpperCase()
    .split(/\r?\n/)
    .forEach((line, index) => {
      // A grade glued to its words apart ("GEMMT10" → "GEM MT 10"; not "BG5"); hyphenated grade words apart ("NM-MT").
      const spaced = line.replace(GLUED_GRADE_WORDS, ' $1 ').replace(/([A-Z])[-–]([A-Z])/g, '$1 $2');
      for (const raw of spaced.split(/\s+/)) {
        const cleaned = raw.replace(/^[^\w#|]+|[^\w|]+$/g, '');
        if (cleaned !== '') words.push({ text: cleaned, line: index });
      }
    });
  return words;
}

/** Levenshtein distance, for the long names only. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

function companyOf(word: string, next: string | undefined): GradingCompany | null {
  const letters = [...word.replace(/[^A-Z0-9]/g, '')].map((c) => LETTER_FOR_DIGIT[c] ?? c).join('');
  // "TAG TEAM" is a kind of Pokémon card, not the grader TAG.
  if (letters === 'TAG' && next?.replace(/[^A-Z]/g, '') === 'TEAM') return null;
  if (COMPANY_NAMES[letters]) return COMPANY_NAMES[letters];
  for (const [name, company] of Object.entries(LONG_COMPANY_NAMES)) if (letters.length >= name.length - 1 && editDistance(letters, name) <= 1) return company;
  return null;
}

/** A grade as printed (10, 9.5, 1O): 1 to 10 in half steps; not a card number (#4, 4/102), a year or a cert. */
function gradeOf(word: string): number | null {
  if (!/\d/.test(word) || word.startsWith('#') || word.includes('/')) return null;
  const digits = [...word].map((c) => DIGIT_FOR_LETTER[c] ?? c).join('');
  if (!/^(10|[1-9])(\.[05])?$/.test(digits)) return null;
  const grade = Number(digits);
  return grade >= 1 && grade <= 10 ? grade : null;
}

/**
 * PSA's words for its grades, as printed on its labels, with the grade each goes with; a "+" after the words is the
 * half grade above (NM-MT+ 8.5). AUTHENTIC: the card is genuine and carries no grade.
 */
const PSA_DESCRIPTORS: ReadonlyArray<readonly [string, number | null]> = [
  ['GEM MT', 10], ['MINT', 9], ['NM-MT', 8], ['NM', 7], ['EX-MT', 6], ['EX', 5], ['VG-EX', 4], ['VG', 3], ['GOOD', 2], ['FR', 1.5], ['PR', 1], ['AUTHENTIC', null],
];
/** PSA's certification number: 8 digits on older labels, 10 on newer ones. */
const PSA_CERT = /^\d{8,10}$/;
/** How many lines below its grade a PSA label's cert may be read (OCR may split a line, or drop one). */
const CERT_LINES_BELOW = 2;

/** A line as OCR gives it, made comparable: capitals, dashes as "-", no spaces round them, stray marks at its end dropped. */
function cleanLine(line: string): string[] {
  const tokens = line
    .toUpperCase()
    .replace(/[—–~]+/g, '-')
    .replace(/\s*-\s*/g, '-')
    .replace(/GEM-MT/g, 'GEM MT')
    .split(/\s+/)
    .filter((token) => /[A-Z0-9]/.test(token));
  return tokens.map((token) => token.replace(/^[^A-Z0-9#]+|[^A-Z0-9+]+$/g, ''));
}

/** The grade a line ends with (10, 9, 8.5, "1O"), or null. */
function gradeEnding(tokens: readonly string[] | undefined): number | null {
  const last = tokens?.at(-1);
  return last === undefined ? null : gradeOf(last);
}

interface PsaDescriptor {
  descriptor: string;
  grade: number | null;
  /** Read letter for letter; else one letter was misread. */
  exact: boolean;
}

/** The PSA descriptors a line may end with ("… MINT", "… NM-MT+"), read exactly or with one letter misread. */
function descriptorsEnding(tokens: readonly string[]): PsaDescriptor[] {
  const found: PsaDescriptor[] = [];
  for (const wordCount of [2, 1]) {
    if (tokens.length < wordCount) continue;
    const tail = tokens.slice(tokens.length - wordCount).join(' ');
    const plus = tail.endsWith('+');
    const words = plus ? tail.slice(0, -1) : tail;
    for (const [descriptor, grade] of PSA_DESCRIPTORS) {
      if (descriptor.split(' ').length !== wordCount) continue;
      if (plus && (grade === null || grade >= 10)) continue;
      const distance = editDistance(words, descriptor);
      if (distance > 1) continue;
      found.push({ descriptor: plus ? `${descriptor}+` : descriptor, grade: grade === null ? null : plus ? grade + 0.5 : grade, exact: distance === 0 });
    }
  }
  return found;
}

/** The cert in these lines: the last 8–10 digit number (a misread O or o taken for 0). */
function psaCertIn(lines: ReadonlyArray<readonly string[]>): string | null {
  let cert: string | null = null;
  for (const tokens of lines) for (const token of tokens) {
    const digits = token.replace(/O/g, '0');
    if (PSA_CERT.test(digits)) cert = digits;
  }
  return cert;
}

/**
 * A PSA label by its layout: a descriptor ending one line and its grade ending the next (or the same) line, then the
 * cert. With the text naming PSA, the cert may be missing (OCR dropped it); without, it is required.
 */
function parsePsaLayout(text: string, namesPsa: boolean): SlabLabel | null {
  const lines = text.split(/\r?\n/).map(cleanLine).filter((tokens) => tokens.length > 0);
  for (const [i, tokens] of lines.entries()) {
    const layouts: Array<{ descriptorTokens: readonly string[]; grade: number | null; gradeLine: number }> = [
      { descriptorTokens: tokens, grade: gradeEnding(lines[i + 1]), gradeLine: i + 1 },
    ];
    // "MINT 9" on one line (older PSA labels, or OCR joining two lines): the descriptor before the last number. Other
    // graders print their grades so too (CGC's, TAG's "MINT 9"), so this only with the text naming PSA.
    const sameLineGrade = gradeEnding(tokens);
    if (namesPsa && sameLineGrade !== null && tokens.length > 1) layouts.push({ descriptorTokens: tokens.slice(0, -1), grade: sameLineGrade, gradeLine: i });
    for (const { descriptorTokens, grade, gradeLine } of layouts) {
      for (const candidate of descriptorsEnding(descriptorTokens)) {
        // The words and the number agree (a misread letter is let through only so). AUTHENTIC has no number beside
        // it to agree with: it is taken only as printed.
        if (candidate.grade !== grade || (candidate.grade === null && !candidate.exact)) continue;
        const cert = psaCertIn(lines.slice(candidate.grade === null ? i : gradeLine, gradeLine + 1 + CERT_LINES_BELOW));
        if (cert === null && !namesPsa) continue;
        return { company: 'PSA', grade: candidate.grade, descriptor: candidate.descriptor, cert };
      }
    }
  }
  return null;
}

/** What a slab's label says (grader, grade, its words, cert), or null when the text is not a label we can trust. */
export function parseSlabLabel(text: string): SlabLabel | null {
  const words = wordsOf(text);
  const named = new Set(words.map((word, i) => companyOf(word.text, words[i + 1]?.text)).filter((company) => company !== null));
  // A label naming another grader is not read as PSA's by its layout.
  if ([...named].every((company) => company === 'PSA')) {
    const psa = parsePsaLayout(text, named.has('PSA'));
    if (psa !== null) return psa;
  }
  return parseNamedGrader(words);
}

/** A grader's name and a grade beside its words, anywhere in the text; the cert the longest number that is neither. */
function parseNamedGrader(words: Word[]): SlabLabel | null {
  const companies = new Set<GradingCompany>();
  const companyAt = new Set<number>();
  words.forEach((word, i) => {
    const company = companyOf(word.text, words[i + 1]?.text);
    if (company === null) return;
    companies.add(company);
    companyAt.add(i);
  });
  // Two graders' names: the label is not one we can trust.
  if (companies.size !== 1) return null;
  const company = [...companies][0]!;

  const nearby = (i: number, test: (word: Word, j: number) => boolean) => {
    for (let j = Math.max(0, i - NEAR_WORDS); j <= Math.min(words.length - 1, i + NEAR_WORDS); j++) if (j !== i && words[j]!.line === words[i]!.line && test(words[j]!, j)) return true;
    return false;
  };
  let best: { grade: number; score: number; at: number } | null = null;
  for (const [i, word] of words.entries()) {
    const grade = gradeOf(word.text);
    if (grade === null) continue;
    const before = words[i - 1];
    if (before && before.line === word.line && SUBGRADE_WORDS.has(before.text)) continue;
    // By a grade word, or else by the grader's name ("CGC 9.5"), or else by EX / VG; the first of the best wins.
    const score = nearby(i, (w) => GRADE_WORDS.has(w.text)) ? 3 : nearby(i, (_, j) => companyAt.has(j)) ? 2 : nearby(i, (w) => WEAK_GRADE_WORDS.has(w.text)) ? 1 : 0;
    if (score > 0 && (best === null || score > best.score)) best = { grade, score, at: i };
  }
  if (best === null) return null;
  return { company, grade: best.grade, descriptor: descriptorBeside(words, best.at), cert: certAmong(words, best.at) };
}

/** The grade words printed next to the grade on its line ("GEM MINT" of "9.5 GEM MINT"), or null. */
function descriptorBeside(words: readonly Word[], gradeAt: number): string | null {
  const isGradeWord = (j: number) => words[j] !== undefined && words[j]!.line === words[gradeAt]!.line && (GRADE_WORDS.has(words[j]!.text) || WEAK_GRADE_WORDS.has(words[j]!.text));
  for (const direction of [1, -1]) {
    const run: string[] = [];
    for (let j = gradeAt + direction; isGradeWord(j); j += direction) run.push(words[j]!.text);
    if (run.length > 0) return (direction < 0 ? run.reverse() : run).join(' ');
  }
  return null;
}

/** A certification number: 7–12 letters and digits with at least 4 digits (not a year, a grade or a card number). */
function certAmong(words: readonly Word[], gradeAt: number): string | null {
  let cert: string | null = null;
  for (const [i, word] of words.entries()) {
    if (i === gradeAt || !/^[A-Z0-9-]{7,14}$/.test(word.text) || (word.text.match(/\d/g) ?? []).length < MIN_CERT_DIGITS) continue;
    if (cert === null || word.text.length > cert.length) cert = word.text;
  }
  return cert;
}
