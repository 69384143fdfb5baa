import { describe, expect, test } from 'vitest';
import type { CollectionCard } from '../../src/contracts/cards.ts';
import {
  collectionSearchSchema,
  filterCards,
  pageCount,
  pageItems,
  priceOf,
  sortCards,
} from '../../web/src/features/collection/collection-view.ts';
import { collectionCsv, conditionFromAnalysis, csvCell, csvFileName } from '../../web/src/features/collection/csv-export.ts';

// The collection's list rules (SPEC.md §9) as pure functions: what the browser test cannot reach cheaply
// (a hundred cards and more for the pages, every band edge, every formula prefix).

let nextId = 0;
function card(overrides: Partial<CollectionCard>): CollectionCard {
  nextId += 1;
  return {
    id: `card-${nextId}`,
    userId: 'user-1',
    cardName: `Card ${nextId}`,
    cardSet: null,
    cardNumber: null,
    cardDescription: null,
    setDescription: null,
    cardFacts: null,
    cardType: 'pokemon',
    imageUrl: null,
    backImageUrl: null,
    cardImageUrl: null,
    cardThumbUrl: null,
    backCardImageUrl: null,
    portfolioCardId: null,
    grades: { centering: 9, corners: 9, edges: 9, surface: 9 },
    overallGrade: 9,
    conditionAnalysis: 'Near Mint, overall 9.0',
    estimatedValue: 'N/A',
    psa10Value: 'N/A',
    rarity: null,
    comcId: null,
    createdAt: new Date(Date.UTC(2026, 0, 1, 12) + nextId * 60_000).toISOString(),
    sample: false,
    ...overrides,
  };
}

const pages = (current: number, count: number) =>
  pageItems(current, count).map((item) => (item.kind === 'page' ? item.page : '…'));

describe('pagination', () => {
  test('pages of 100', () => {
    expect([0, 1, 100, 101, 250].map(pageCount)).toEqual([1, 1, 1, 2, 3]);
  });

  test('up to five page buttons around the current page, an ellipsis where pages are skipped', () => {
    expect(pages(1, 3)).toEqual([1, 2, 3]);
    expect(pages(1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pages(1, 9)).toEqual([1, 2, 3, 4, 5, '…']);
    expect(pages(5, 9)).toEqual(['…', 3, 4, 5, 6, 7, '…']);
    expect(pages(9, 9)).toEqual(['…', 5, 6, 7, 8, 9]);
    expect(pages(2, 9)).toEqual([1, 2, 3, 4, 5, '…']);
  });
});

describe('filters and sorts', () => {
  test('the price is the number in the first token of the estimate', () => {
    expect(priceOf('$1,250.50 (estimate by gpt-4o-mini, not market data)')).toBe(1250.5);
    expect(priceOf('$0.99')).toBe(0.99);
    expect(priceOf('N/A')).toBeNull();
    expect(priceOf(null)).toBeNull();
  });

  test('price bands run from their lower edge up to the next; cards without a price match none', () => {
    const cards = [0, 49.99, 50, 149.99, 150, 499.99, 500, 10_000].map((price) => card({ estimatedValue: `$${price}` }));
    const unpriced = card({ estimatedValue: 'N/A' });
    const band = (price: 'low' | 'medium' | 'high' | 'premium') =>
      filterCards([...cards, unpriced], { price }).map((c) => priceOf(c.estimatedValue));
    expect(band('low')).toEqual([0, 49.99]);
    expect(band('medium')).toEqual([50, 149.99]);
    expect(band('high')).toEqual([150, 499.99]);
    expect(band('premium')).toEqual([500, 10_000]);
  });

  test('grade bands include both edges', () => {
    const cards = [6.9, 7, 8.5, 9, 9.5, 10].map((overallGrade) => card({ overallGrade }));
    const band = (grade: 'low' | 'medium' | 'high' | 'premium') => filterCards(cards, { grade }).map((c) => c.overallGrade);
    expect(band('low')).toEqual([6.9, 7]);
    expect(band('medium')).toEqual([7, 8.5]);
    expect(band('high')).toEqual([8.5, 9, 9.5]);
    expect(band('premium')).toEqual([9.5, 10]);
  });

  test('search is a case-insensitive substring of the name or the set', () => {
    const cards = [card({ cardName: 'Charizard', cardSet: 'Base Set' }), card({ cardName: 'Pikachu', cardSet: 'Jungle' })];
    expect(filterCards(cards, { q: 'ZARD' }).map((c) => c.cardName)).toEqual(['Charizard']);
    expect(filterCards(cards, { q: '  jung ' }).map((c) => c.cardName)).toEqual(['Pikachu']);
    expect(filterCards(cards, { q: 'set' }).map((c) => c.cardName)).toEqual(['Charizard']);
  });

  test('one band filter at a time: a URL with both keeps the price band', () => {
    expect(collectionSearchSchema.parse({ price: 'low', grade: 'high', page: '2' })).toEqual({ price: 'low', grade: undefined, page: 2 });
    expect(collectionSearchSchema.parse({ sort: 'nonsense', view: 'list', page: '0' })).toEqual({ sort: undefined, view: 'list', page: undefined });
  });

  test('value sorts put cards without a price last either way; ties stay newest first', () => {
    const a = card({ cardName: 'a', estimatedValue: '$10' });
    const none = card({ cardName: 'none', estimatedValue: 'N/A' });
    const b = card({ cardName: 'b', estimatedValue: '$20' });
    const bTwin = card({ cardName: 'b twin', estimatedValue: '$20' });
    expect(sortCards([a, none, b, bTwin], 'estimatedValue_desc').map((c) => c.cardName)).toEqual(['b twin', 'b', 'a', 'none']);
    expect(sortCards([a, none, b, bTwin], 'estimatedValue_asc').map((c) => c.cardName)).toEqual(['a', 'b twin', 'b', 'none']);
    expect(sortCards([a, none, b], 'createdAt_asc').map((c) => c.cardName)).toEqual(['a', 'none', 'b']);
    expect(sortCards([a, none, b], 'cardName_desc').map((c) => c.cardName)).toEqual(['none', 'b', 'a']);
  });
});

describe('CSV export', () => {
  test('a cell a spreadsheet would run as a formula gets an apostrophe; quotes, commas and line breaks are quoted', () => {
    expect(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', 'plain'].map(csvCell)).toEqual(["'=1+1", "'+1", "'-1", "'@SUM(A1)", "'\tx", 'plain']);
    expect(csvCell('a, "b"\nc')).toBe('"a, ""b""\nc"');
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
  });

  test('the condition is the first condition word of the analysis', () => {
    expect(conditionFromAnalysis('Near Mint, overall 9.6: …')).toBe('Near Mint');
    expect(conditionFromAnalysis('lightly played, overall 8.1')).toBe('Lightly Played');
    expect(conditionFromAnalysis('Mint corners')).toBe('Mint');
    expect(conditionFromAnalysis('no words here')).toBe('');
    expect(conditionFromAnalysis(null)).toBe('');
  });

  test('the file: BOM, header, one CRLF-ended row per card, dated file name', () => {
    const csv = collectionCsv([card({ cardName: 'Eevee', grades: { centering: null, corners: 8, edges: 7.25, surface: 9 }, overallGrade: 8 })]);
    const [header, row, end] = csv.slice(1).split('\r\n');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(header!.split(',')).toHaveLength(18);
    expect(row!.split(',').slice(0, 12)).toEqual(['Eevee', '', '', 'Pokemon', '', '8.0', 'Centering Not Measurable', 'Near Mint', '', '8.0', '7.3', '9.0']);
    expect(end).toBe('');
    expect(csvFileName(new Date(2026, 2, 7))).toBe('my-card-collection-2026-03-07.csv');
  });
});
