import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardResultSchema, collectionCardSchema } from '../../src/contracts/cards.ts';
import { portfolioCardDetailSchema, portfolioCardSchema } from '../../src/contracts/portfolio.ts';
import { renderNamedCardPhoto } from '../identification/named-card.ts';
import { routeDatabaseKind } from '../support/database.ts';
import { startPriceChartingFake, type PriceChartingFake } from '../support/pricecharting-server.ts';
import { expectRefused, startCardsApp, type Browser, type CardsHarness } from './cards-harness.ts';

// Issue 32: when identification is not sure it offers the best catalogue cards; the owner confirms one
// (POST /api/card/{id}/identification, { catalogId }), recorded on the card's stream, and the card's name, set, number
// and year follow it on its page and in the collection. Owner only; an id the catalogue does not have is a 400. The
// card's value follows at once: priced through the price ports (here a PriceCharting fake on loopback) as it is
// confirmed, or N/A saying why when the source fails, while the confirmation still stands.

const jpeg = (bytes: Uint8Array) => ({ bytes, type: 'image/jpeg', filename: 'card.jpg' });
/** 12/149 and no name: Sun & Moon's Decidueye-GX and Boundaries Crossed's Servine both print it (an HP, attacks and illustrator neither has). */
const twoSetsPhoto = () => renderNamedCardPhoto({ name: '', number: '12/149', seed: 61, hp: 30, attacks: [], illustrator: 'Nobody Known' });

describe.each([await routeDatabaseKind()])('confirming the catalogue card on %s', (kind) => {
  let h: CardsHarness;
  let photo: Buffer;

  beforeAll(async () => {
    h = await startCardsApp(kind);
    photo = Buffer.from(await twoSetsPhoto());
  });
  afterAll(async () => {
    await h?.close();
  });

  async function unsureCard(browser: Browser) {
    const response = await browser.grade([['frontImage', jpeg(photo)]]);
    expect(response.statusCode).toBe(200);
    return cardResultSchema.parse(response.json());
  }
  const confirmations = async (cardId: string) => (await h.runtime.eventStore.readStream(`card-${cardId}`)).events.filter((e) => e.type === 'CardIdentificationConfirmed');

  it('offers both printings of 12/149 with set, number and year, and the owner confirms one: its page and the collection follow', async () => {
    const { browser } = await h.registered();
    const card = await unsureCard(browser);
    expect(card.identification.catalogId).toBeNull();
    expect(card.identification.catalogCandidates).toEqual(
      expect.arrayContaining([
        { catalogId: 'sm1-12', cardName: 'Decidueye-GX', cardSet: 'Sun & Moon', cardNumber: '12/149', cardYear: '2017' },
        { catalogId: 'bw7-12', cardName: 'Servine', cardSet: 'Boundaries Crossed', cardNumber: '12/149', cardYear: '2012' },
      ]),
    );

    const response = await browser.post(`/api/card/${card.id}/identification`, { catalogId: 'sm1-12' });
    expect(response.statusCode).toBe(200);
    const confirmed = cardResultSchema.parse(response.json());
    expect(confirmed).toMatchObject({ id: card.id, cardName: 'Decidueye-GX', cardSet: 'Sun & Moon', cardNumber: '12/149', overallGrade: card.overallGrade });
    expect(confirmed.identification).toMatchObject({ catalogId: 'sm1-12', cardYear: '2017', catalogConfidence: 1, confirmedByOwner: true });
    expect(confirmed.identification.catalogCandidates).toBeUndefined();
    expect(cardResultSchema.parse((await browser.get(`/api/card/${card.id}`)).json()).cardName).toBe('Decidueye-GX');
    const mine = ((await browser.get('/api/my-cards')).json() as unknown[]).map((c) => collectionCardSchema.parse(c));
    expect(mine.map((c) => [c.id, c.cardName, c.cardSet, c.cardNumber])).toEqual([[card.id, 'Decidueye-GX', 'Sun & Moon', '12/149']]);

    // The same card again records nothing; the other one records its own confirmation.
    expect((await browser.post(`/api/card/${card.id}/identification`, { catalogId: 'sm1-12' })).statusCode).toBe(200);
    expect(await confirmations(card.id)).toHaveLength(1);
    expect((await browser.post(`/api/card/${card.id}/identification`, { catalogId: 'bw7-12' })).json().cardName).toBe('Servine');
    expect((await confirmations(card.id)).map((e) => (e.data as { card: { catalogId: string } }).card.catalogId)).toEqual(['sm1-12', 'bw7-12']);
  });

  it('refuses a catalogue id that is missing, malformed or unknown, each with its message, and records nothing', async () => {
    const { browser } = await h.registered();
    const card = await unsureCard(browser);
    for (const body of [{}, { catalogId: '' }, { catalogId: 42 }, { catalogId: 'base1 58' }, { catalogId: 'x'.repeat(65) }]) {
      await expectRefused(await browser.post(`/api/card/${card.id}/identification`, body), 400, 'invalid_request');
    }
    const unknown = await expectRefused(await browser.post(`/api/card/${card.id}/identification`, { catalogId: 'base1-999' }), 400, 'unknown_catalog_card');
    expect(unknown.error).toBe('No card in the catalogue has the id "base1-999"');
    expect(await confirmations(card.id)).toEqual([]);
  });

  it("answers another user's card, a guest's, an unknown id and a malformed one with 404, and changes nothing", async () => {
    const owner = await h.registered();
    const card = await unsureCard(owner.browser);
    for (const other of [h.browser(), (await h.registered()).browser]) {
      await expectRefused(await other.post(`/api/card/${card.id}/identification`, { catalogId: 'sm1-12' }), 404, 'card_not_found', 'Card not found');
    }
    await expectRefused(await owner.browser.post('/api/card/AAAAAAAAAAAAAAAAAAAAAA/identification', { catalogId: 'sm1-12' }), 404, 'card_not_found');
    expect(await confirmations(card.id)).toEqual([]);
    expect((await owner.browser.get(`/api/card/${card.id}`)).json().cardName).toBe('Unknown card');
  });
});

const TOKEN = 'identification-pricecharting-token';
/** PriceCharting's answer for whatever it is asked, in pennies: ungraded $4.20, Grade 9 $25.00, PSA 10 $90.00, BGS 10 $150.00. */
const PRODUCT = { id: '5127', 'product-name': 'Decidueye GX #12', 'console-name': 'Pokemon Sun & Moon', 'loose-price': 420, 'graded-price': 2500, 'manual-only-price': 9000, 'bgs-10-price': 15000 };

describe.each([await routeDatabaseKind()])('the value follows a confirmation on %s', (kind) => {
  let fake: PriceChartingFake;
  let h: CardsHarness;
  let down: CardsHarness;
  let photo: Buffer;
  const day = () => new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    fake = await startPriceChartingFake(TOKEN, { '*': PRODUCT });
    h = await startCardsApp(kind, { PRICECHARTING_TOKEN: TOKEN, PRICECHARTING_API_URL: fake.url });
    // A PriceCharting that does not answer: a port that was just closed.
    const gone = await startPriceChartingFake(TOKEN);
    await gone.close();
    down = await startCardsApp(kind, { PRICECHARTING_TOKEN: TOKEN, PRICECHARTING_API_URL: gone.url, PRICE_TIMEOUT_MS: '500' });
    photo = Buffer.from(await twoSetsPhoto());
  });
  afterAll(async () => {
    await h?.close();
    await down?.close();
    await fake?.close();
  });

  async function savedToPortfolio(harness: CardsHarness) {
    const { browser } = await harness.registered();
    const graded = await browser.grade([['frontImage', jpeg(photo)]]);
    const card = cardResultSchema.parse(graded.json());
    expect((await browser.post(`/api/card/${card.id}/save`)).statusCode).toBe(200);
    const added = await browser.post(`/api/card/${card.id}/portfolio`);
    expect(added.statusCode).toBe(201);
    return { browser, card, entry: portfolioCardSchema.parse(added.json()) };
  }
  const streamOf = async (harness: CardsHarness, cardId: string) => (await harness.runtime.eventStore.readStream(`card-${cardId}`)).events;

  it('prices the confirmed card at once: the answer, the card, the collection and the portfolio entry show its value and the values by grade', async () => {
    const { browser, card, entry } = await savedToPortfolio(h);
    expect(card.estimatedValue).toBe('N/A');
    expect(entry).toMatchObject({ cardName: 'Unknown card', currentPrice: null });

    const response = await browser.post(`/api/card/${card.id}/identification`, { catalogId: 'sm1-12' });
    expect(response.statusCode).toBe(200);
    const confirmed = cardResultSchema.parse(response.json());
    const label = `PriceCharting ungraded, ${day()}`;
    expect(confirmed.estimatedValue).toBe(`$4.20 (${label})`);
    expect(confirmed.identification.estimatedValue).toEqual({ text: '$4.20', label });
    expect(fake.requests.at(-1)?.get('q')).toBe('Decidueye-GX Sun & Moon 12');
    expect(cardResultSchema.parse((await browser.get(`/api/card/${card.id}`)).json()).estimatedValue).toBe(`$4.20 (${label})`);
    const [mine] = ((await browser.get('/api/my-cards')).json() as unknown[]).map((c) => collectionCardSchema.parse(c));
    expect(mine).toMatchObject({ cardName: 'Decidueye-GX', estimatedValue: `$4.20 (${label})` });

    // Recorded on the card's stream as a price event right after the confirmation, the values by grade with it.
    const events = await streamOf(h, card.id);
    expect(events.map((e) => e.type).slice(-2)).toEqual(['CardIdentificationConfirmed', 'CardPriceRecorded']);
    const byGrade = {
      source: 'PriceCharting',
      currency: 'USD',
      asOf: day(),
      product: 'Decidueye GX #12 · Pokemon Sun & Moon',
      grades: [
        { label: 'Grade 9', grade: 9, cents: 2500 },
        { label: 'PSA 10', grade: 10, cents: 9000 },
        { label: 'BGS 10', grade: null, cents: 15000 },
      ],
    };
    expect(events.at(-1)!.data).toMatchObject({ cardId: card.id, priceValue: 4.2, source: label, grade: card.overallGrade, graded: byGrade });

    // The portfolio entry added from the card before it was confirmed is worth the same, its history with the grades.
    const detail = portfolioCardDetailSchema.parse((await browser.get(`/api/portfolio/${entry.id}`)).json());
    expect(detail).toMatchObject({ currentPrice: '4.20', priceSource: label });
    expect(detail.priceHistory).toEqual([
      {
        priceDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        price: '4.20',
        source: label,
        createdAt: expect.any(String),
        graded: { ...byGrade, grades: byGrade.grades.map((g) => ({ ...g, amount: (g.cents / 100).toFixed(2) })) },
      },
    ]);

    // Confirmed again: no second confirmation, and no price that did not move.
    expect((await browser.post(`/api/card/${card.id}/identification`, { catalogId: 'sm1-12' })).statusCode).toBe(200);
    expect((await streamOf(h, card.id)).length).toBe(events.length);
  });

  it('a card added to the portfolio after it was confirmed brings its price and values by grade', async () => {
    const { browser } = await h.registered();
    const card = cardResultSchema.parse((await browser.grade([['frontImage', jpeg(photo)]])).json());
    expect((await browser.post(`/api/card/${card.id}/identification`, { catalogId: 'bw7-12' })).json().estimatedValue).toMatch(/^\$4\.20 \(PriceCharting ungraded/);
    expect((await browser.post(`/api/card/${card.id}/save`)).statusCode).toBe(200);
    const entry = portfolioCardSchema.parse((await browser.post(`/api/card/${card.id}/portfolio`)).json());
    expect(entry).toMatchObject({ cardName: 'Servine', currentPrice: '4.20' });
    const detail = portfolioCardDetailSchema.parse((await browser.get(`/api/portfolio/${entry.id}`)).json());
    expect(detail.priceHistory.map((p) => [p.price, p.graded?.grades.map((g) => `${g.label} ${g.amount}`)])).toEqual([['4.20', ['Grade 9 25.00', 'PSA 10 90.00', 'BGS 10 150.00']]]);
  });

  it('confirms all the same when the price source fails, and the value says why in plain words', async () => {
    const { browser, card, entry } = await savedToPortfolio(down);
    const response = await browser.post(`/api/card/${card.id}/identification`, { catalogId: 'sm1-12' });
    expect(response.statusCode).toBe(200);
    const confirmed = cardResultSchema.parse(response.json());
    expect(confirmed).toMatchObject({ cardName: 'Decidueye-GX', estimatedValue: 'N/A (no market price: PriceCharting could not be reached)' });
    expect(confirmed.identification.estimatedValue).toEqual({ text: 'N/A', label: 'no market price: PriceCharting could not be reached' });
    const [mine] = ((await browser.get('/api/my-cards')).json() as unknown[]).map((c) => collectionCardSchema.parse(c));
    expect(mine!.estimatedValue).toBe('N/A (no market price: PriceCharting could not be reached)');
    const events = await streamOf(down, card.id);
    expect(events.at(-1)).toMatchObject({ type: 'CardIdentificationConfirmed', data: { valueUnavailable: 'PriceCharting could not be reached' } });
    expect(events.some((e) => e.type === 'CardPriceRecorded')).toBe(false);
    expect(portfolioCardDetailSchema.parse((await browser.get(`/api/portfolio/${entry.id}`)).json())).toMatchObject({ currentPrice: null, priceHistory: [] });
  });

  it('asks no price source for a card that is not the caller’s, nor for a catalogue id that does not exist', async () => {
    const { browser: owner, card } = await savedToPortfolio(h);
    const asked = fake.requests.length;
    for (const stranger of [(await h.registered()).browser, h.browser()]) {
      await expectRefused(await stranger.post(`/api/card/${card.id}/identification`, { catalogId: 'swsh1-1' }), 404, 'card_not_found');
    }
    await expectRefused(await owner.post(`/api/card/${card.id}/identification`, { catalogId: 'sm1-999' }), 400, 'unknown_catalog_card');
    await expectRefused(await owner.post(`/api/card/${card.id}/identification`, { catalogId: 'sm1 12' }), 400, 'invalid_request');
    expect(fake.requests.length).toBe(asked);
  });
});
