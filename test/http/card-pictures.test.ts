import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionCardSchema, sharedCardSchema } from '../../src/contracts/cards.ts';
import { portfolioCardDetailSchema, portfolioCardSchema } from '../../src/contracts/portfolio.ts';
import { analysisResultSchema } from '../../src/contracts/portfolio-analysis.ts';
import { routeDatabaseKind } from '../support/database.ts';
import { expectRefused, samplePhoto, startCardsApp, type Browser, type CardsHarness } from './cards-harness.ts';

// Issue 35: the card in every picture (the flattened card the engine measured is kept beside the photo, with a
// thumbnail, and served like any image), and one place for what I own (a collection card joins the portfolio, linked
// both ways). Through the real app and engine.

const jpeg = (bytes: Uint8Array) => ({ bytes, type: 'image/jpeg', filename: 'card.jpg' });
const CARD_ASPECT = 63 / 88;

describe.each([await routeDatabaseKind()])('card pictures and the collection-portfolio link on %s', (kind) => {
  let h: CardsHarness;
  let gem: Buffer;
  let scratched: Buffer;

  beforeAll(async () => {
    h = await startCardsApp(kind);
    [gem, scratched] = await Promise.all([samplePhoto(1), samplePhoto(4)]);
  });

  afterAll(async () => {
    await h?.close();
  });

  async function image(browser: Browser, url: string) {
    const response = await browser.get(url);
    expect(response.statusCode).toBe(200);
    const meta = await sharp(response.rawPayload).metadata();
    return { response, width: meta.width, height: meta.height, format: meta.format, bytes: response.rawPayload.length };
  }

  async function myCards(browser: Browser) {
    const response = await browser.get('/api/my-cards');
    expect(response.statusCode).toBe(200);
    return collectionCardSchema.array().parse(response.json());
  }

  /** Grades the photos as this browser and saves the card (SPEC.md's save: the files again, nothing else). */
  async function gradedAndSaved(browser: Browser, front: Buffer, back?: Buffer) {
    const parts: Parameters<Browser['grade']>[0] = [['frontImage', jpeg(front)]];
    if (back) parts.push(['backImage', jpeg(back)]);
    const saved = await browser.grade(parts);
    expect(saved.statusCode).toBe(200);
    return (saved.json() as { id: string }).id;
  }

  it('keeps the flattened card (63 × 88, JPEG) and its thumbnail beside each photo, served cacheable; the photo stays as sent', async () => {
    const { browser } = await h.registered();
    const cardId = await gradedAndSaved(browser, gem, scratched);
    const [card] = await myCards(browser);
    expect(card!.id).toBe(cardId);
    expect(card!.cardImageUrl).toMatch(/^\/api\/images\/[0-9a-f]{64}$/);
    expect(card!.cardThumbUrl).toMatch(/^\/api\/images\/[0-9a-f]{64}$/);
    expect(card!.backCardImageUrl).toMatch(/^\/api\/images\/[0-9a-f]{64}$/);
    expect(card!.portfolioCardId).toBeNull();

    const full = await image(browser, card!.cardImageUrl!);
    const thumb = await image(browser, card!.cardThumbUrl!);
    const back = await image(browser, card!.backCardImageUrl!);
    const photo = await image(browser, card!.imageUrl!);
    expect(full).toMatchObject({ format: 'jpeg', width: 630, height: 880 });
    expect(back).toMatchObject({ format: 'jpeg', width: 630, height: 880 });
    expect(thumb).toMatchObject({ format: 'jpeg', width: 315, height: 440 });
    expect(full.width! / full.height!).toBeCloseTo(CARD_ASPECT, 2);
    // The photo has table round the card: not the card's shape.
    expect(Math.abs(photo.width! / photo.height! - CARD_ASPECT)).toBeGreaterThan(0.03);
    // A tile's thumbnail is a fraction of the picture, and both are cached for ever like every stored image.
    expect(thumb.bytes).toBeLessThan(full.bytes / 2);
    expect(thumb.response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(full.response.headers.etag).toBe(`"${card!.cardImageUrl!.split('/').at(-1)}"`);
  });

  it('adds a collection card to the portfolio once, linked both ways; the link goes when the collection card does', async () => {
    const { browser, user } = await h.registered();
    const cardId = await gradedAndSaved(browser, scratched);
    // The collection is read (and its snapshot kept) before the portfolio changes: adding must still show the link.
    const [before] = await myCards(browser);
    expect(before!.portfolioCardId).toBeNull();

    const added = await browser.post(`/api/card/${cardId}/portfolio`);
    expect(added.statusCode).toBe(201);
    const entry = portfolioCardSchema.parse(added.json());
    expect(entry).toMatchObject({ userId: user.id, gradedCardId: cardId, cardImageUrl: before!.cardImageUrl, cardThumbUrl: before!.cardThumbUrl, imageUrl: before!.imageUrl, category: 'Pokemon Card' });
    expect(entry.estimatedGrade).toBe(before!.overallGrade);

    // Once: again answers with the same entry.
    const again = await browser.post(`/api/card/${cardId}/portfolio`);
    expect(again.statusCode).toBe(200);
    expect(portfolioCardSchema.parse(again.json()).id).toBe(entry.id);
    const portfolio = portfolioCardSchema.array().parse((await browser.get('/api/portfolio')).json());
    expect(portfolio.map((c) => c.id)).toEqual([entry.id]);

    const [after] = await myCards(browser);
    expect(after!.portfolioCardId).toBe(entry.id);
    expect(sharedCardSchema.parse((await browser.get(`/api/card/${cardId}`)).json()).portfolioCardId).toBe(entry.id);
    expect(portfolioCardDetailSchema.parse((await browser.get(`/api/portfolio/${entry.id}`)).json()).gradedCardId).toBe(cardId);

    // Someone with the shared link learns nothing of the owner's portfolio.
    const { browser: stranger } = await h.registered();
    expect(sharedCardSchema.parse((await stranger.get(`/api/card/${cardId}`)).json()).portfolioCardId).toBeNull();

    // Deleted from the collection: the portfolio keeps its card, no longer linked.
    expect((await browser.delete(`/api/card/${cardId}`)).statusCode).toBe(200);
    const kept = portfolioCardSchema.array().parse((await browser.get('/api/portfolio')).json());
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ id: entry.id, gradedCardId: null, cardImageUrl: before!.cardImageUrl });
  });

  it('refuses a guest (401), a card of someone else (404), an unknown id (404) and a card not saved (409)', async () => {
    const guest = h.browser();
    const guestCard = await gradedAndSaved(guest, gem);
    await expectRefused(await guest.post(`/api/card/${guestCard}/portfolio`), 401, 'unauthorized');

    const { browser: owner } = await h.registered();
    const ownerCard = await gradedAndSaved(owner, gem);
    const { browser: other } = await h.registered();
    await expectRefused(await other.post(`/api/card/${ownerCard}/portfolio`), 404, 'card_not_found');
    await expectRefused(await other.post('/api/card/not-an-id/portfolio'), 404, 'card_not_found');
    expect(portfolioCardSchema.array().parse((await owner.get('/api/portfolio')).json())).toEqual([]);

    // Graded (with a field, so not saved) but not in the collection.
    const graded = await other.grade([['frontImage', jpeg(scratched)], ['cardType', 'pokemon']]);
    const unsaved = (graded.json() as { id: string }).id;
    await expectRefused(await other.post(`/api/card/${unsaved}/portfolio`), 409, 'card_not_saved', 'Save the card to your collection first, then add it to your portfolio.');
  });

  it("an analysis answers with the flattened card too, and the portfolio keeps only this server's pictures for it", async () => {
    const { browser } = await h.registered();
    const analysed = analysisResultSchema.parse((await browser.post('/api/analyze-card-images', { frontImage: gem.toString('base64') })).json());
    expect(analysed.cardImageUrl).toMatch(/^\/api\/images\/[0-9a-f]{64}$/);
    expect(analysed.cardThumbUrl).toMatch(/^\/api\/images\/[0-9a-f]{64}$/);
    expect(analysed.backCardImageUrl).toBeNull();
    expect(await image(browser, analysed.cardImageUrl!)).toMatchObject({ width: 630, height: 880 });

    const body = { cardName: analysed.cardName, imageUrl: analysed.imageUrl, cardImageUrl: analysed.cardImageUrl, cardThumbUrl: analysed.cardThumbUrl };
    const added = await browser.post('/api/portfolio', body);
    expect(added.statusCode).toBe(201);
    const entry = portfolioCardSchema.parse(added.json());
    expect(entry).toMatchObject({ cardImageUrl: analysed.cardImageUrl, cardThumbUrl: analysed.cardThumbUrl, gradedCardId: null });
    await expectRefused(await browser.post('/api/portfolio', { ...body, cardImageUrl: 'https://example.com/card.jpg' }), 400, 'invalid_request', /Card image URL must be a picture stored by this server/);

    // Another photo typed in: the flattened card of the old one no longer stands for it.
    const edited = portfolioCardSchema.parse((await browser.patch(`/api/portfolio/${entry.id}`, { imageUrl: 'https://example.com/other.jpg' })).json());
    expect(edited).toMatchObject({ imageUrl: 'https://example.com/other.jpg', cardImageUrl: null, cardThumbUrl: null });
  });
});
