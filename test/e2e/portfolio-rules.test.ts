import { describe, expect, it } from 'vitest';
import type { PortfolioCard } from '../../src/contracts/portfolio.ts';
import { cardFromAnalysis } from '../../src/contracts/portfolio-analysis.ts';
import { portfolioCsv, portfolioCsvFileName, PORTFOLIO_CSV_COLUMNS } from '../../web/src/features/portfolio/csv-export.ts';
import { filterPortfolio, pairImages, pasteUrlPairs, portfolioSearchSchema, sortPortfolio, summarise, withoutLines } from '../../web/src/features/portfolio/portfolio-view.ts';

// The portfolio screen's list rules (SPEC.md §9) as pure functions: search, graded only, sorts, the summary in exact
// cents, pairing of photos and URLs, and the CSV export with formula cells neutralised.

let nextId = 0;
function card(overrides: Partial<PortfolioCard> = {}): PortfolioCard {
  nextId++;
  return {
    id: nextId,
    userId: 'u1',
    cardName: `Card ${nextId}`,
    cardSet: null,
    cardNumber: null,
    cardYear: null,
    isGraded: false,
    gradingCompany: null,
    officialGrade: null,
    estimatedGrade: null,
    currentPrice: null,
    priceSource: null,
    imageUrl: null,
    backImageUrl: null,
    cardImageUrl: null,
    cardThumbUrl: null,
    backCardImageUrl: null,
    gradedCardId: null,
    condition: null,
    rarity: null,
    category: 'Trading Card',
    notes: null,
    acquisitionPrice: null,
    acquisitionDate: null,
    createdAt: `2026-11-${String(nextId).padStart(2, '0')}T12:00:00.000Z`,
    updatedAt: '2026-11-25T12:00:00.000Z',
    ...overrides,
  };
}

describe('the portfolio list', () => {
  const a = card({ cardName: 'Charizard', cardSet: 'Base Set', cardNumber: '4/102', cardYear: '1999', currentPrice: '350.10', isGraded: true });
  const b = card({ cardName: 'pikachu', cardSet: 'Jungle', currentPrice: '0.99' });
  const c = card({ cardName: 'Blastoise', cardNumber: '2/102', currentPrice: null });
  const all = [a, b, c];

  it('searches name, set, number and year, case-insensitively, and keeps graded cards only when asked', () => {
    expect(filterPortfolio(all, { q: 'JUNGLE' })).toEqual([b]);
    expect(filterPortfolio(all, { q: '/102' })).toEqual([a, c]);
    expect(filterPortfolio(all, { q: '1999' })).toEqual([a]);
    expect(filterPortfolio(all, { q: '  ' })).toEqual(all);
    expect(filterPortfolio(all, { graded: true })).toEqual([a]);
  });

  it('sorts by date, price (no price last either way) and name', () => {
    expect(sortPortfolio(all, 'createdAt_desc')).toEqual([c, b, a]);
    expect(sortPortfolio(all, 'createdAt_asc')).toEqual([a, b, c]);
    expect(sortPortfolio(all, 'currentPrice_desc')).toEqual([a, b, c]);
    expect(sortPortfolio(all, 'currentPrice_asc')).toEqual([b, a, c]);
    expect(sortPortfolio(all, 'cardName_asc')).toEqual([c, a, b]);
    expect(sortPortfolio(all, 'cardName_desc')).toEqual([b, a, c]);
  });

  it('reads unknown search params as absent', () => {
    expect(portfolioSearchSchema.parse({ sort: 'nonsense', page: '-2', graded: 'yes', q: 'x' })).toEqual({ q: 'x' });
    expect(portfolioSearchSchema.parse({ sort: 'currentPrice_asc', page: '3', graded: true })).toEqual({ sort: 'currentPrice_asc', page: 3, graded: true });
  });

  it('sums value and cost in cents: a thousand cards of $0.10 are $100.00, not 99.99999', () => {
    const dimes = Array.from({ length: 1_000 }, () => card({ currentPrice: '0.10', acquisitionPrice: '0.30' }));
    const summary = summarise([...dimes, card({ isGraded: true })]);
    expect(summary).toEqual({ totalCards: 1_001, gradedCards: 1, valueCents: 10_000, costCents: 30_000, gain: { cents: -20_000, percent: -66.7 } });
    expect(summarise([card({ currentPrice: '5.00' })]).gain).toEqual({ cents: 500, percent: 0 });
  });

  it('pairs photos and URL lines front/back, an odd count making the last single-sided', () => {
    expect(pairImages(['1', '2', '3'])).toEqual([{ front: '1', back: '2' }, { front: '3', back: null }]);
    expect(pairImages([])).toEqual([]);
    // Paste URLs (issue 35): lines pair in order; two on a line pair by hand; a lone line before them or at the end has no back.
    const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map((x) => `https://img.example/${x}.jpg`);
    expect(pasteUrlPairs(`${a}\r\n\n${b}\n${c}\n${d}, ${e}\n`)).toEqual({
      cards: [
        { front: { url: a, line: 1 }, back: { url: b, line: 3 } },
        { front: { url: c, line: 4 }, back: null },
        { front: { url: d, line: 5 }, back: { url: e, line: 5 } },
      ],
      problems: [],
    });
    expect(pasteUrlPairs(`${a}\nftp://x/y.jpg\n${a} ${b} ${c}`).problems.map((p) => [p.line, p.reason.split(':')[0]])).toEqual([
      [2, 'Not a web address'],
      [3, 'More than two addresses on one line'],
    ]);
    expect(withoutLines(`${a}\n${b}\n\n${c}\n`, new Set([1, 2]))).toBe(c);
  });
});

describe('the portfolio CSV', () => {
  it('has its columns, one row per card, and formula cells neutralised', () => {
    const csv = portfolioCsv([
      card({ cardName: '=HYPERLINK("http://evil.example","x")', cardSet: '+cmd', notes: '@SUM(A1)', currentPrice: '12.50', acquisitionPrice: '10.00', createdAt: '2026-11-26T03:30:00.000Z' }),
    ]);
    const [header, row] = csv.replace(/^\uFEFF/, '').split('\r\n');
    expect(header).toBe(PORTFOLIO_CSV_COLUMNS.join(','));
    expect(row).toBe(`"'=HYPERLINK(""http://evil.example"",""x"")",'+cmd,,,Trading Card,No,,,,,,12.50,,10.00,,2.50,25.0%,'@SUM(A1),2026-11-25`);
    expect(portfolioCsvFileName(new Date(2026, 10, 25))).toBe('my-portfolio-2026-11-25.csv');
  });

  it('adds an analysed card with its grade only when the slab was read as graded', () => {
    const body = cardFromAnalysis({
      cardName: 'Mew', cardSet: null, cardNumber: null, year: null, isGraded: false, gradingCompany: 'PSA', grade: 10, estimatedGrade: 9.5,
      condition: 'Near Mint', estimatedPrice: 'N/A', price: null, priceSource: 'x', notes: null, category: 'Pokemon Card', imageUrl: '/api/images/a', backImageUrl: null,
      cardImageUrl: null, cardThumbUrl: null, backCardImageUrl: null,
    });
    expect(body).toMatchObject({ gradingCompany: null, officialGrade: null, estimatedGrade: 9.5, currentPrice: null, priceSource: null, category: 'Pokemon Card' });
  });
});
