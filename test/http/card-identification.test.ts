import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardResultSchema, collectionCardSchema } from '../../src/contracts/cards.ts';
import { renderNamedCardPhoto } from '../identification/named-card.ts';
import { routeDatabaseKind } from '../support/database.ts';
import { expectRefused, startCardsApp, type Browser, type CardsHarness } from './cards-harness.ts';

// Issue 32: when identification is not sure it offers the best catalogue cards; the owner confirms one
// (POST /api/card/{id}/identification, { catalogId }), recorded on the card's stream, and the card's name, set, number
// and year follow it on its page and in the collection. Owner only; an id the catalogue does not have is a 400.

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
