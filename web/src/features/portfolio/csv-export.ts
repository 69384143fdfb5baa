import { centsToDecimal, formatPercent, newYorkDate } from '../../../../src/contracts/money.ts';
import type { PortfolioCard } from '../../../../src/contracts/portfolio.ts';
// Relative, not '@/' or '@contracts': the unit tests import this module without the web app's aliases.
import { csvCell, localDate } from '../collection/csv-export.ts';
import { cardGain } from './portfolio-view.ts';

// Beyond SPEC (issue 10): the portfolio as a spreadsheet, formula cells neutralised as in the collection's export.

export const PORTFOLIO_CSV_COLUMNS = [
  'Card Name',
  'Set',
  'Card Number',
  'Year',
  'Category',
  'Graded',
  'Grading Company',
  'Official Grade',
  'Estimated Grade',
  'Condition',
  'Rarity',
  'Current Price',
  'Price Source',
  'Acquisition Price',
  'Acquisition Date',
  'Gain/Loss',
  'Gain/Loss %',
  'Notes',
  'Date Added',
] as const;

const grade = (value: number | null) => (value === null ? '' : value.toFixed(1));

export function portfolioCsvRow(card: PortfolioCard): string[] {
  const gain = cardGain(card);
  return [
    card.cardName,
    card.cardSet ?? '',
    card.cardNumber ?? '',
    card.cardYear ?? '',
    card.category,
    card.isGraded ? 'Yes' : 'No',
    card.gradingCompany ?? '',
    grade(card.officialGrade),
    grade(card.estimatedGrade),
    card.condition ?? '',
    card.rarity ?? '',
    card.currentPrice ?? '',
    card.priceSource ?? '',
    card.acquisitionPrice ?? '',
    card.acquisitionDate ?? '',
    gain ? centsToDecimal(gain.cents) : '',
    gain ? formatPercent(gain.percent) : '',
    card.notes ?? '',
    newYorkDate(card.createdAt),
  ];
}

/** A BOM so spreadsheets read UTF-8, a header row, one row per card, CRLF line ends. */
export function portfolioCsv(cards: readonly PortfolioCard[]): string {
  const lines = [PORTFOLIO_CSV_COLUMNS, ...cards.map(portfolioCsvRow)].map((cells) => cells.map(csvCell).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

export const portfolioCsvFileName = (today: Date) => `my-portfolio-${localDate(today)}.csv`;
