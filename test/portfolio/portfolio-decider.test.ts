import { describe, expect, it } from 'vitest';
import {
  MANUAL_PRICE_SOURCE,
  portfolioCardDecider,
  portfolioCardEventSchemas,
  type PortfolioCardAdded,
  type PortfolioCardDetails,
  type PortfolioCardEvent,
  type PortfolioCardPriced,
  type PortfolioCardRemoved,
} from '../../src/domain/portfolio/index.ts';
import type { GradedValues } from '../../src/domain/cards/index.ts';
import { specify } from '../accounts/decider-spec.ts';
import { details } from './portfolio-fixture.ts';

const given = specify(portfolioCardDecider);

// 03:30 UTC on 26 Nov is still 25 Nov in New York: prices are dated by the New York day (SPEC.md §9).
const AT = '2026-11-26T03:30:00.000Z';
const LATER = '2026-11-27T15:00:00.000Z';

const added: PortfolioCardAdded = { type: 'PortfolioCardAdded', data: { cardId: 7, owner: 'user:u1', details: details(), addedAt: AT } };
const pricedAt = (price: number | null, source: string | null, at = AT): PortfolioCardPriced => ({
  type: 'PortfolioCardPriced',
  data: { cardId: 7, price, source, priceDate: at === AT ? '2026-11-25' : '2026-11-27', pricedAt: at },
});
const removed: PortfolioCardRemoved = { type: 'PortfolioCardRemoved', data: { cardId: 7, owner: 'user:u1', removedAt: LATER } };

const add = (price: { cents: number; source: string | null; graded?: GradedValues } | null, overrides: Partial<PortfolioCardDetails> = {}) => ({
  type: 'AddPortfolioCard' as const,
  data: { cardId: 7, owner: 'user:u1' as const, details: details(overrides), price, at: AT },
});
const edit = (changes: Partial<PortfolioCardDetails>, price?: { cents?: number | null; source?: string | null }, requestedBy: `user:${string}` = 'user:u1') => ({
  type: 'EditPortfolioCard' as const,
  data: { cardId: 7, requestedBy, changes, ...(price ? { price } : {}), at: LATER },
});

describe('adding a card', () => {
  it('records the card, and its price as a priced event dated by the New York day', () => {
    given([]).when(add({ cents: 4_999, source: 'TCGplayer' })).then([added, pricedAt(4_999, 'TCGplayer')]);
  });

  it('records the values by grade a graded card’s price brings with it, beside the price (issue 32)', () => {
    const graded: GradedValues = { source: 'PriceCharting', currency: 'USD', asOf: '2026-11-25', product: 'Pikachu #58', grades: [{ label: 'PSA 10', grade: 10, cents: 52_000 }] };
    const source = 'PriceCharting ungraded, 2026-11-25';
    const pricedWith: PortfolioCardPriced = { ...pricedAt(1_500, source), data: { ...pricedAt(1_500, source).data, graded } };
    given([]).when(add({ cents: 1_500, source, graded })).then([added, pricedWith]);
    expect(portfolioCardEventSchemas.PortfolioCardPriced.safeParse(pricedWith.data).success).toBe(true);
  });

  it('records no price event without a price, and calls a price with no source the collector’s own', () => {
    given([]).when(add(null)).then([added]);
    given([]).when(add({ cents: 100, source: null })).then([added, pricedAt(100, MANUAL_PRICE_SOURCE)]);
  });

  it('keeps a grading company and official grade only for a graded card', () => {
    const graded = details({ isGraded: true, gradingCompany: 'PSA', officialGrade: 9.5 });
    given([]).when(add(null, { isGraded: true, gradingCompany: 'PSA', officialGrade: 9.5 })).then([{ ...added, data: { ...added.data, details: graded } }]);
    given([]).when(add(null, { gradingCompany: 'PSA' })).thenRefuses('portfolio_grade_needs_graded');
    given([]).when(add(null, { officialGrade: 8 })).thenRefuses('portfolio_grade_needs_graded');
  });

  it('never overwrites a card: an id already used is refused', () => {
    given([added]).when(add(null)).thenRefuses('portfolio_card_exists');
  });

  it('belongs to an account, never a guest', () => {
    given([]).when({ ...add(null), data: { ...add(null).data, owner: 'guest:g1' } }).thenRefuses('unauthorized');
  });

  it('has payloads its schemas accept', () => {
    const events: PortfolioCardEvent[] = [added, pricedAt(4_999, 'TCGplayer'), removed];
    for (const event of events) expect(portfolioCardEventSchemas[event.type].parse(event.data)).toEqual(event.data);
    expect(() => portfolioCardEventSchemas.PortfolioCardPriced.parse({ ...pricedAt(1, 'x').data, price: 1.5 })).toThrow();
    expect(() => portfolioCardEventSchemas.PortfolioCardPriced.parse({ ...pricedAt(1, 'x').data, price: 10_000_000_000 })).toThrow();
  });
});

describe('editing a card', () => {
  it('records only the fields that changed', () => {
    given([added])
      .when(edit({ cardName: 'Charizard', cardSet: 'Base Set 2', notes: 'Bought at a show', acquisitionPrice: 12_500 }))
      .then([{ type: 'PortfolioCardEdited', data: { cardId: 7, changes: { cardSet: 'Base Set 2', notes: 'Bought at a show' }, editedAt: LATER } }]);
  });

  it('records nothing when nothing changed', () => {
    given([added]).when(edit({ cardName: 'Charizard', rarity: 'Holo' })).then([]);
    given([added, pricedAt(500, 'TCGplayer')]).when(edit({}, { cents: 500 })).then([]);
  });

  it('records a new price as the collector’s own unless a source is given', () => {
    given([added, pricedAt(500, 'TCGplayer')]).when(edit({}, { cents: 650 })).then([pricedAt(650, MANUAL_PRICE_SOURCE, LATER)]);
    given([added, pricedAt(500, 'TCGplayer')]).when(edit({}, { cents: 650, source: 'eBay sold' })).then([pricedAt(650, 'eBay sold', LATER)]);
    given([added, pricedAt(500, 'TCGplayer')]).when(edit({}, { source: 'PriceCharting' })).then([pricedAt(500, 'PriceCharting', LATER)]);
    given([added, pricedAt(500, 'TCGplayer')]).when(edit({}, { cents: null })).then([pricedAt(null, null, LATER)]);
  });

  it('clears company and official grade when a card is marked raw, and refuses them for a raw card', () => {
    const graded = { ...added, data: { ...added.data, details: details({ isGraded: true, gradingCompany: 'BGS', officialGrade: 9.5 }) } };
    given([graded])
      .when(edit({ isGraded: false }))
      .then([{ type: 'PortfolioCardEdited', data: { cardId: 7, changes: { isGraded: false, gradingCompany: null, officialGrade: null }, editedAt: LATER } }]);
    given([added]).when(edit({ gradingCompany: 'CGC' })).thenRefuses('portfolio_grade_needs_graded');
    given([added])
      .when(edit({ isGraded: true, gradingCompany: 'CGC', officialGrade: 10 }))
      .then([{ type: 'PortfolioCardEdited', data: { cardId: 7, changes: { isGraded: true, gradingCompany: 'CGC', officialGrade: 10 }, editedAt: LATER } }]);
  });

  it('answers anyone but the owner, a removed card and an unknown id alike: Card not found', () => {
    given([added]).when(edit({ notes: 'mine now' }, undefined, 'user:u2')).thenRefuses('portfolio_card_not_found');
    given([added, removed]).when(edit({ notes: 'x' })).thenRefuses('portfolio_card_not_found');
    given([]).when(edit({ notes: 'x' })).thenRefuses('portfolio_card_not_found');
  });
});

describe('removing a card', () => {
  const remove = (requestedBy: `user:${string}` = 'user:u1') => ({ type: 'RemovePortfolioCard' as const, data: { cardId: 7, requestedBy, at: LATER } });

  it('removes the owner’s card, and a second removal changes nothing', () => {
    given([added]).when(remove()).then([removed]);
    given([added, removed]).when(remove()).then([]);
  });

  it('is refused to anyone else, and for an unknown id, with the same Card not found', () => {
    given([added]).when(remove('user:u2')).thenRefuses('portfolio_card_not_found');
    given([added, removed]).when(remove('user:u2')).thenRefuses('portfolio_card_not_found');
    given([]).when(remove()).thenRefuses('portfolio_card_not_found');
  });
});
