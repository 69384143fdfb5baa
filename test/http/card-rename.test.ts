import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardResultSchema, collectionCardSchema, sharedCardSchema } from '../../src/contracts/cards.ts';
import { portfolioCardSchema } from '../../src/contracts/portfolio.ts';
import { renderNamedCardPhoto } from '../identification/named-card.ts';
import { routeDatabaseKind } from '../support/database.ts';
import { expectRefused, samplePhoto, startCardsApp, type Browser, type CardsHarness } from './cards-harness.ts';

// Issue 35: every card can be renamed (PATCH /api/card/{id}), by its owner alone; a card identification does not
// stand behind is "Unknown card" until then. The name goes everywhere the card is read: its page, the collection
// (and so its CSV), a portfolio entry added from it, and orders (they read the same row).

const jpeg = (bytes: Uint8Array) => ({ bytes, type: 'image/jpeg', filename: 'card.jpg' });

describe.each([await routeDatabaseKind()])('renaming a card on %s', (kind) => {
  let h: CardsHarness;
  let photos: Buffer[];

  beforeAll(async () => {
    h = await startCardsApp(kind);
    photos = await Promise.all([samplePhoto(2), samplePhoto(3), samplePhoto(4)]);
  });
  afterAll(async () => {
    await h?.close();
  });

  /** Graded and saved (the upload alone saves it), as the owner's collection has it. */
  async function savedCard(browser: Browser, photo: Buffer) {
    const response = await browser.grade([['frontImage', jpeg(photo)]]);
    expect(response.statusCode).toBe(200);
    return cardResultSchema.parse(response.json());
  }
  const renameEvents = async (cardId: string) => (await h.runtime.eventStore.readStream(`card-${cardId}`)).events.filter((e) => e.type === 'CardRenamed');

  it('names a card of stray print "Unknown card", and the owner renames it: its page, the collection, the portfolio', async () => {
    const { browser } = await h.registered();
    // Its only print is stray text the catalogue does not know: nothing stands behind a name.
    const strayPrint = Buffer.from(await renderNamedCardPhoto({ name: 'Baby Pokemon counts ae', number: '77/999', seed: 41 }));
    const card = await savedCard(browser, strayPrint);
    expect(card.cardName).toBe('Unknown card');
    expect(card.identification).toMatchObject({ source: 'ocr', cardName: null, catalogId: null });

    const response = await browser.patch(`/api/card/${card.id}`, { name: '  Dark Charizard  ' });
    expect(response.statusCode).toBe(200);
    expect(cardResultSchema.parse(response.json())).toMatchObject({ id: card.id, cardName: 'Dark Charizard', overallGrade: card.overallGrade });
    expect(sharedCardSchema.parse((await browser.get(`/api/card/${card.id}`)).json()).cardName).toBe('Dark Charizard');
    // A stranger with the link sees the owner's name too.
    expect((await h.browser().get(`/api/card/${card.id}`)).json().cardName).toBe('Dark Charizard');
    const mine = ((await browser.get('/api/my-cards')).json() as unknown[]).map((c) => collectionCardSchema.parse(c));
    expect(mine.map((c) => [c.id, c.cardName])).toEqual([[card.id, 'Dark Charizard']]);

    const added = await browser.post(`/api/card/${card.id}/portfolio`);
    expect(portfolioCardSchema.parse(added.json()).cardName).toBe('Dark Charizard');

    // The same name again records nothing; another name records another rename.
    expect((await browser.patch(`/api/card/${card.id}`, { name: 'Dark Charizard' })).statusCode).toBe(200);
    expect(await renameEvents(card.id)).toHaveLength(1);
    expect((await browser.patch(`/api/card/${card.id}`, { name: 'Charizard' })).json().cardName).toBe('Charizard');
    expect((await renameEvents(card.id)).map((e) => e.data)).toEqual([
      expect.objectContaining({ name: 'Dark Charizard', renamedBy: `user:${(await browser.get('/api/user')).json().id}` }),
      expect.objectContaining({ name: 'Charizard' }),
    ]);
  });

  it('refuses a name that is empty, blank, over 100 characters, on two lines or not text, and records nothing', async () => {
    const { browser } = await h.registered();
    const card = await savedCard(browser, photos[0]!);
    for (const body of [{ name: '' }, { name: '   ' }, { name: 'x'.repeat(101) }, { name: 'Pika\nchu' }, { name: 'Pika\u0000chu' }, { name: 42 }, {}]) {
      const refused = await expectRefused(await browser.patch(`/api/card/${card.id}`, body), 400, 'invalid_request');
      expect(refused.error, JSON.stringify(body)).toBeTruthy();
    }
    const body = await expectRefused(await browser.patch(`/api/card/${card.id}`, { name: 'x'.repeat(101) }), 400, 'invalid_request');
    expect(JSON.stringify(body)).toContain('Card name must be at most 100 characters');
    expect(await renameEvents(card.id)).toEqual([]);
    // 100 characters is a name.
    expect((await browser.patch(`/api/card/${card.id}`, { name: 'y'.repeat(100) })).json().cardName).toBe('y'.repeat(100));
  });

  it("answers another user's card, a guest's, an unknown id and a malformed one with 404, and changes nothing", async () => {
    const owner = await h.registered();
    const card = await savedCard(owner.browser, photos[1]!);
    const before = (await h.runtime.eventStore.readStream(`card-${card.id}`)).version;
    for (const other of [h.browser(), (await h.registered()).browser]) {
      await expectRefused(await other.patch(`/api/card/${card.id}`, { name: 'Mine now' }), 404, 'card_not_found', 'Card not found');
    }
    await expectRefused(await owner.browser.patch('/api/card/AAAAAAAAAAAAAAAAAAAAAA', { name: 'Pikachu' }), 404, 'card_not_found');
    await expectRefused(await owner.browser.patch('/api/card/..%2F..%2Fetc', { name: 'Pikachu' }), 404, 'card_not_found');
    expect((await h.runtime.eventStore.readStream(`card-${card.id}`)).version).toBe(before);
    expect((await owner.browser.get(`/api/card/${card.id}`)).json().cardName).toBe(card.cardName);
  });

  it('refuses a rename without this site\'s Origin', async () => {
    const owner = await h.registered();
    const card = await savedCard(owner.browser, photos[2]!);
    const forged = await owner.browser.send({ method: 'PATCH', url: `/api/card/${card.id}`, headers: { origin: 'https://evil.example' }, payload: { name: 'Forged' } });
    await expectRefused(forged, 403, 'bad_origin');
    expect(await renameEvents(card.id)).toEqual([]);
  });

  it('lets a guest rename the card kept in their browser, and the name goes with it to the account at sign-in', async () => {
    const guest = h.browser();
    const card = await savedCard(guest, photos[2]!);
    expect((await guest.patch(`/api/card/${card.id}`, { name: 'Cleffa' })).json().cardName).toBe('Cleffa');
    expect((await guest.get('/api/my-cards')).json()).toEqual([expect.objectContaining({ id: card.id, cardName: 'Cleffa' })]);
    await h.signUp(guest);
    expect((await guest.get('/api/my-cards')).json()).toEqual([expect.objectContaining({ id: card.id, cardName: 'Cleffa' })]);
    expect((await guest.patch(`/api/card/${card.id}`, { name: 'Cleffa (Neo)' })).json().cardName).toBe('Cleffa (Neo)');
  });
});
