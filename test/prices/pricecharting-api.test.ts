import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPriceChartingSource, searchTextFor } from '../../src/infra/prices/index.ts';
import { startPriceChartingFake, type PriceChartingFake } from '../support/pricecharting-server.ts';

// The PriceCharting adapter against a fake of its API on loopback: pennies to cents with their labels, source,
// currency and day; a missing or zero price is no figure; a wrong token or an unknown product is a reason, not a price.

const TOKEN = 'adapter-token';
const DAY = Date.parse('2026-11-28T10:00:00Z');

describe('PriceCharting per-grade prices', () => {
  let fake: PriceChartingFake;
  beforeAll(async () => {
    fake = await startPriceChartingFake(TOKEN, {
      'Cleffa Neo Genesis 20': { id: '1', 'product-name': 'Cleffa #20', 'console-name': 'Pokemon Neo Genesis', 'loose-price': 399, 'cib-price': 0, 'graded-price': 2150, 'manual-only-price': 12999 },
    });
  });
  afterAll(() => fake?.close());

  const card = { catalogId: 'neo1-20', name: 'Cleffa', set: 'Neo Genesis', number: '20/111' };

  it('searches by name, set and number, and reads pennies as cents with source, currency and day', async () => {
    expect(searchTextFor(card)).toBe('Cleffa Neo Genesis 20');
    const source = createPriceChartingSource({ token: TOKEN, baseUrl: fake.url, now: () => DAY });
    const lookup = await source.gradedPricesOf(card);
    expect(lookup).toEqual({
      ok: true,
      prices: {
        source: 'PriceCharting',
        currency: 'USD',
        asOf: '2026-11-28',
        product: 'Cleffa #20 · Pokemon Neo Genesis',
        raw: { label: 'Ungraded', grade: null, cents: 399, amount: '3.99' },
        // cib-price 0 and the absent fields are no figure.
        grades: [
          { label: 'Grade 9', grade: 9, cents: 2150, amount: '21.50' },
          { label: 'PSA 10', grade: 10, cents: 12999, amount: '129.99' },
        ],
      },
    });
    // Kept a day: asked once.
    await source.gradedPricesOf(card);
    expect(fake.requests.filter((q) => q.get('q') === 'Cleffa Neo Genesis 20')).toHaveLength(1);
  });

  it('gives the reason for a wrong token and an unknown product', async () => {
    const wrong = createPriceChartingSource({ token: 'nope', baseUrl: fake.url, now: () => DAY });
    expect(await wrong.gradedPricesOf(card)).toEqual({ ok: false, reason: 'PriceCharting: Invalid token' });
    const source = createPriceChartingSource({ token: TOKEN, baseUrl: fake.url, now: () => DAY });
    expect(await source.gradedPricesOf({ catalogId: 'x-1', name: 'Missingno', set: null, number: null })).toEqual({ ok: false, reason: 'PriceCharting: No such product' });
  });

  it('says when PriceCharting cannot be reached', async () => {
    const source = createPriceChartingSource({ token: TOKEN, baseUrl: 'http://127.0.0.1:1', now: () => DAY });
    expect(await source.gradedPricesOf(card)).toEqual({ ok: false, reason: 'PriceCharting could not be reached' });
  });
});
