import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PsaEstimate } from '../../src/contracts/grading.ts';
import { worthGradingSchema } from '../../src/contracts/worth-grading.ts';
import { NO_GRADED_PRICE_SOURCE_REASON } from '../../src/infra/prices/index.ts';
import { routeDatabaseKind } from '../support/database.ts';
import { startPriceChartingFake, type PriceChartingFake } from '../support/pricecharting-server.ts';
import { expectRefused, samplePhoto, startCardsApp, type Browser, type CardsHarness } from './cards-harness.ts';
import type { Runtime } from '../../src/runtime.ts';

// "Is it worth grading?" over HTTP (issue 32 item 4), against a PriceCharting fake on loopback that speaks its format.
// The expected figures are worked out here on their own, from the service level guide's prices (SPEC.md §9), $4.99
// shipping and exact fractions, not from the module that computes them.

const TOKEN = 'pc-test-token';
const PIKACHU = { name: 'Pikachu', set: 'Base Set', number: '58/102', catalogId: 'base1-58' };
const PRODUCT = {
  id: '6910', 'product-name': 'Pikachu #58', 'console-name': 'Pokemon Base Set',
  'loose-price': 6500, 'cib-price': 4000, 'new-price': 5500, 'graded-price': 9000, 'box-only-price': 15000,
  'manual-only-price': 40000, 'bgs-10-price': 60000, 'condition-17-price': 45000, 'condition-18-price': 42000,
};
/** The guide's base prices in cents, lowest tier first. */
const BASE_PRICES: [string, number][] = [['budget', 1000], ['economy', 1900], ['standard', 2900], ['priority', 4500], ['express', 6500], ['super', 8500], ['ultra', 17500]];

/** The estimate every card graded in this file gets; the test sets it before grading. */
let estimate: PsaEstimate = { grade: 8.5, low: 7, high: 10, confidence: 0.3, canTell: true, reason: null };
let identified = true;

const withCard = (runtime: Runtime): Runtime => ({
  ...runtime,
  gradePhotos: async (photos) => {
    const graded = await runtime.gradePhotos(photos);
    const identification = identified ? { ...graded.card.identification, catalogId: PIKACHU.catalogId } : { ...graded.card.identification, catalogId: null };
    return { ...graded, card: { ...graded.card, cardName: PIKACHU.name, cardSet: PIKACHU.set, cardNumber: PIKACHU.number, identification, psaEstimate: { ...estimate } } };
  },
});

/** Σ p(grade) × value(grade) by exact fractions: p as numerator over a shared denominator. */
function expectedCents(weights: [number, number][], denominator: number): number {
  const total = weights.reduce((sum, [weight, cents]) => sum + weight * cents, 0);
  return Math.floor((2 * total + denominator) / (2 * denominator));
}

describe.each([await routeDatabaseKind()])('is it worth grading? on %s', (kind) => {
  let fake: PriceChartingFake;
  let h: CardsHarness;
  let bare: CardsHarness;
  let owner: Browser;
  let photo: Uint8Array;

  const gradeOne = async (harness: CardsHarness, browser: Browser) => {
    const graded = await browser.grade([['frontImage', { bytes: photo }]]);
    expect(graded.statusCode).toBe(200);
    return graded.json().id as string;
  };

  beforeAll(async () => {
    fake = await startPriceChartingFake(TOKEN, { 'Pikachu Base Set 58': PRODUCT });
    photo = await samplePhoto(1);
    h = await startCardsApp(kind, { PRICECHARTING_TOKEN: TOKEN, PRICECHARTING_API_URL: fake.url }, { runtime: withCard });
    bare = await startCardsApp(kind, {}, { runtime: withCard });
    ({ browser: owner } = await h.registered());
  });
  afterAll(async () => {
    await h?.close();
    await bare?.close();
    await fake?.close();
  });

  it('weighs the odds against the value at each grade and every service level, to the cent', async () => {
    estimate = { grade: 8.5, low: 7, high: 10, confidence: 0.3, canTell: true, reason: null };
    const cardId = await gradeOne(h, owner);
    // A stranger with the link sees it too, like the card.
    const response = await h.browser().get(`/api/card/${cardId}/worth-grading`);
    expect(response.statusCode).toBe(200);
    const answer = worthGradingSchema.parse(response.json());
    if (!answer.available) throw new Error(answer.reason);

    // The fake was asked once, with the token and the card's name, set and number.
    expect(fake.requests.map((q) => [q.get('t'), q.get('q')])).toEqual([[TOKEN, 'Pikachu Base Set 58']]);

    // 7..10 in halves: within one of 8.5 (7.5..9.5) share 30%, 7 and 10 share 70%.
    const grades = [7, 7.5, 8, 8.5, 9, 9.5, 10];
    const near = (g: number) => Math.abs(g - 8.5) <= 1;
    const nearCount = grades.filter(near).length;
    const farCount = grades.length - nearCount;
    // p = 0.30 / 5 near, 0.70 / 2 far; over a denominator of 100 × 5 × 2.
    const denominator = 100 * nearCount * farCount;
    const weight = (g: number) => (near(g) ? 30 * farCount : 70 * nearCount);
    expect(answer.odds.map((o) => [o.grade, o.basisPoints])).toEqual(grades.map((g) => [g, (weight(g) * 10_000) / denominator]));

    // Values: each grade's own figure, else the nearest priced grade below it (7.5 → Grade 7, 8.5 → Grade 8).
    const value: Record<number, number> = { 7: 4000, 7.5: 4000, 8: 5500, 8.5: 5500, 9: 9000, 9.5: 15000, 10: 40000 };
    const expected = expectedCents(grades.map((g) => [weight(g), value[g]!]), denominator);
    expect(expected).toBe(17740);
    expect(answer.expected).toMatchObject({ valueCents: expected, value: '177.40', rawCents: 6500, raw: '65.00' });

    const raw = 6500;
    const verdictFor = (gain: number, cost: number) => (gain * 4 >= cost ? 'worth it' : gain >= 0 ? 'borderline' : 'not worth it');
    const want = BASE_PRICES.map(([code, base]) => {
      const cost = base + 499; // $65 declared: no insurance
      const gain = expected - cost - raw;
      return { code, costCents: cost, netCents: expected - cost, gainCents: gain, verdict: verdictFor(gain, cost) };
    });
    expect(answer.levels.map((l) => (l.offered ? { code: l.code, costCents: l.costCents, netCents: l.netCents, gainCents: l.gainCents, verdict: l.verdict } : l))).toEqual(want);
    // All three verdicts occur: Super's $22.41 gain is under a quarter of its $89.99 cost.
    expect(want.map((w) => w.verdict)).toEqual(['worth it', 'worth it', 'worth it', 'worth it', 'worth it', 'borderline', 'not worth it']);
    const superLevel = answer.levels[5]!;
    expect(superLevel.offered && superLevel.explanation).toBe('$177.40 expected − $89.99 cost − $65.00 raw value = $22.41 gain; worth it from $22.50 (25% of the cost), borderline from $0.00.');

    // Item 5: the values name their source, currency and day, raw and per grade.
    expect(answer.prices).toMatchObject({ source: 'PriceCharting', currency: 'USD', asOf: new Date().toISOString().slice(0, 10), product: 'Pikachu #58 · Pokemon Base Set' });
    expect(answer.prices!.raw).toEqual({ label: 'Ungraded', grade: null, cents: 6500, amount: '65.00' });
    expect(answer.prices!.grades.map((p) => [p.label, p.amount])).toEqual([
      ['Grade 7', '40.00'], ['Grade 8', '55.00'], ['Grade 9', '90.00'], ['Grade 9.5', '150.00'], ['PSA 10', '400.00'], ['BGS 10', '600.00'], ['CGC 10', '450.00'], ['SGC 10', '420.00'],
    ]);
    expect(answer.thresholds.worthItMarginPercent).toBe(25);
  });

  it('spreads the odds over the range when the estimate cannot tell, and says so', async () => {
    estimate = { grade: 8, low: 6, high: 10, confidence: 0.2, canTell: false, reason: 'The photo shows the card at 4.1 px/mm, too coarse for the corners, edges and surface that decide a PSA grade.' };
    const other = await h.registered();
    const cardId = await gradeOne(h, other.browser);
    const answer = worthGradingSchema.parse((await other.browser.get(`/api/card/${cardId}/worth-grading`)).json());
    if (!answer.available) throw new Error(answer.reason);
    expect(answer.canTell).toBe(false);
    expect(answer.oddsNote).toMatch(/cannot tell the grade .*spread evenly over its range, PSA 6 to 10/);
    expect(answer.odds.map((o) => o.basisPoints)).toEqual([1112, 1111, 1111, 1111, 1111, 1111, 1111, 1111, 1111]);
    // 1112 × $65 (6 and 6.5 below Grade 7 are valued as ungraded) …: Σ bp × cents / 10,000, half up.
    const sum = 1112 * 6500 + 1111 * (6500 + 4000 + 4000 + 5500 + 5500 + 9000 + 15000 + 40000);
    expect(answer.expected!.valueCents).toBe(Math.floor((sum + 5000) / 10_000));
    expect(answer.levels).toHaveLength(7);
  });

  it('shows the odds alone when no price source is configured, and says so', async () => {
    estimate = { grade: 8.5, low: 7, high: 10, confidence: 0.3, canTell: true, reason: null };
    const { browser } = await bare.registered();
    const cardId = await gradeOne(bare, browser);
    const answer = worthGradingSchema.parse((await browser.get(`/api/card/${cardId}/worth-grading`)).json());
    expect(answer).toMatchObject({ available: true, prices: null, expected: null, levels: [], priceNote: NO_GRADED_PRICE_SOURCE_REASON });
    expect(answer.available && answer.odds).toHaveLength(7);
  });

  it('has no answer for an unidentified card, and 404s an unknown one', async () => {
    identified = false;
    try {
      const { browser } = await h.registered();
      const cardId = await gradeOne(h, browser);
      const answer = worthGradingSchema.parse((await browser.get(`/api/card/${cardId}/worth-grading`)).json());
      expect(answer).toEqual({ available: false, cardId, reason: 'The card was not matched to the catalogue, so there is no value to weigh against the cost of grading.' });
    } finally {
      identified = true;
    }
    await expectRefused(await owner.get('/api/card/not-a-card/worth-grading'), 404, 'card_not_found');
    await expectRefused(await owner.get('/api/card/aaaaaaaaaaaaaaaaaaaaaa/worth-grading'), 404, 'card_not_found');
  });
});
