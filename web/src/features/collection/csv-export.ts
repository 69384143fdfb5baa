import type { CollectionCard } from '@contracts/cards';
// Relative, not '@/': this module has no imports the unit tests (test/e2e/collection-rules.test.ts) cannot resolve.
import { formatCardType } from '../cards/grade-format';
import { csvCell } from '../../../../src/contracts/csv.ts';

// The collection as a spreadsheet (SPEC.md §9): these columns, this file name.

export const CSV_COLUMNS = [
  'Card Name',
  'Set',
  'Card Number',
  'Type',
  'Rarity',
  'Overall Grade',
  'Overall Centering',
  'Overall Condition',
  'Centering',
  'Corners',
  'Edges',
  'Surface',
  'Estimated Value',
  'PSA 10 Value',
  'Condition Analysis',
  'Card Facts',
  'COMC ID',
  'Date Added',
] as const;

const CONDITION_WORDS = /\b(Near Mint|Lightly Played|Moderately Played|Heavily Played|Mint|Damaged|Excellent|Good|Poor)\b/i;

/** The condition named first in the analysis text ("Near Mint, overall 9.4: …" → "Near Mint"), or ''. */
export function conditionFromAnalysis(analysis: string | null): string {
  const match = analysis?.match(CONDITION_WORDS)?.[1];
  if (!match) return '';
  return match.replace(/\b\w/g, (letter) => letter.toUpperCase()).replace(/\B\w/g, (letter) => letter.toLowerCase());
}

/** The centering verdict of SPEC.md §9 (8.5 or above is good) from a stored centering subgrade. */
export function centeringVerdictOf(centering: number | null): string {
  if (centering === null) return 'Centering Not Measurable';
  return centering >= 8.5 ? 'Good Centering' : 'Poor Centering';
}

/** YYYY-MM-DD in the reader's time zone. */
export function localDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function csvFileName(today: Date): string {
  return `my-card-collection-${localDate(today)}.csv`;
}

// One cell's escaping is shared with the server's CSV of an import's failed rows.
export { csvCell } from '../../../../src/contracts/csv.ts';

const grade = (value: number | null) => (value === null ? '' : value.toFixed(1));

export function csvRow(card: CollectionCard): string[] {
  return [
    card.cardName,
    card.cardSet ?? '',
    card.cardNumber ?? '',
    formatCardType(card.cardType),
    card.rarity ?? '',
    grade(card.overallGrade),
    centeringVerdictOf(card.grades.centering),
    conditionFromAnalysis(card.conditionAnalysis),
    grade(card.grades.centering),
    grade(card.grades.corners),
    grade(card.grades.edges),
    grade(card.grades.surface),
    card.estimatedValue ?? 'N/A',
    card.psa10Value ?? 'N/A',
    card.conditionAnalysis ?? '',
    card.cardFacts ?? '',
    card.comcId ?? '',
    localDate(new Date(card.createdAt)),
  ];
}

/** The whole file: a BOM so spreadsheets read it as UTF-8, a header row, one row per card, CRLF line ends. */
export function collectionCsv(cards: readonly CollectionCard[]): string {
  const lines = [CSV_COLUMNS, ...cards.map(csvRow)].map((cells) => cells.map(csvCell).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
