import type { GradingCompany, SlabLabel } from '../../contracts/grading.ts';

// A professional grader's slab label, as OCR read it: who graded the card and the grade printed on it. Pure text
// work: the label is found and read in src/infra/identification/slab-label-reader.ts. Nothing is guessed: without a
// grader's name and a grade next to the words that go with it, the label is not read (the card counts as raw).


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

/** The grader and the grade read off a slab's label, or null when the text does not name both. */
export function parseSlabLabel(text: string): SlabLabel | null {
  const words = wordsOf(text);
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
  let best: { grade: number; score: number } | null = null;
  for (const [i, word] of words.entries()) {
    const grade = gradeOf(word.text);
    if (grade === null) continue;
    const before = words[i - 1];
    if (before && before.line === word.line && SUBGRADE_WORDS.has(before.text)) continue;
    // By a grade word, or else by the grader's name ("CGC 9.5"), or else by EX / VG; the first of the best wins.
    const score = nearby(i, (w) => GRADE_WORDS.has(w.text)) ? 3 : nearby(i, (_, j) => companyAt.has(j)) ? 2 : nearby(i, (w) => WEAK_GRADE_WORDS.has(w.text)) ? 1 : 0;
    if (score > 0 && (best === null || score > best.score)) best = { grade, score };
  }
  return best === null ? null : { company, grade: best.grade };
}
