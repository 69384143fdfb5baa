import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newYorkDate } from '../../src/contracts/money.ts';
import { portfolioCardDetailSchema, portfolioCardSchema, portfolioValuePointSchema, type PortfolioCard } from '../../src/contracts/portfolio.ts';
import { inlineProjections } from '../../src/projections/index.ts';
import { rebuildProjection } from '../../src/projections/runner/index.ts';
import { routeDatabaseKind } from '../support/database.ts';
import { analysisResultSchema, cardFromAnalysis } from '../../src/contracts/portfolio-analysis.ts';
import { renderSyntheticCard } from '../../src/vision/index.ts';
import { expectRefused, samplePhoto, startCardsApp, startPhotoServer, type Browser, type CardsHarness } from './cards-harness.ts';

// The portfolio routes through the real app on both engines: add, list, read, inline edit (PATCH), detail edit
// (PUT), delete; money exact; the owner from the session only; another user and a guest refused on every route;
// malformed input refused with a 400 that writes nothing; a rebuild equal to the live read models.

describe.each([await routeDatabaseKind()])('portfolio API on %s', (kind) => {
  let h: CardsHarness;
  beforeAll(async () => {
    h = await startCardsApp(kind);
  });
  afterAll(async () => {
    await h?.close();
  });

  const eventCount = async () => Number((await sql<{ n: string }>`select count(*) as n from es_events`.execute(h.database.db)).rows[0]!.n);

  async function add(browser: Browser, body: object): Promise<PortfolioCard> {
    const response = await browser.post('/api/portfolio', body);
    expect(response.statusCode, response.body).toBe(201);
    return portfolioCardSchema.parse(response.json());
  }

  it('adds, lists, reads, edits and deletes a card, with money exact and every price in its history', async () => {
    const { browser, user } = await h.registered();
    expect((await browser.get('/api/portfolio')).json()).toEqual([]);

    const card = await add(browser, {
      cardName: '  Charizard ',
      cardSet: 'Base Set',
      cardNumber: '4/102',
      cardYear: '1999',
      currentPrice: '350.10',
      priceSource: 'TCGplayer',
      acquisitionPrice: 0.1,
      acquisitionDate: '2026-11-01',
      condition: 'Near Mint',
      // Never the owner: the session decides.
      userId: '00000000-0000-4000-8000-000000000000',
      id: 1,
    });
    expect(card).toMatchObject({
      userId: user.id,
      cardName: 'Charizard',
      isGraded: false,
      gradingCompany: null,
      category: 'Trading Card',
      currentPrice: '350.10',
      priceSource: 'TCGplayer',
      acquisitionPrice: '0.10',
      acquisitionDate: '2026-11-01',
    });
    expect(Number.isInteger(card.id)).toBe(true);

    const graded = await add(browser, { cardName: 'Pikachu', isGraded: true, gradingCompany: 'PSA', officialGrade: 9.5, currentPrice: 99_999_999.99, acquisitionPrice: '0' });
    expect(graded).toMatchObject({ isGraded: true, gradingCompany: 'PSA', officialGrade: 9.5, currentPrice: '99999999.99', acquisitionPrice: '0.00' });

    // Newest first.
    const list = ((await browser.get('/api/portfolio')).json() as unknown[]).map((c) => portfolioCardSchema.parse(c));
    expect(list.map((c) => c.id)).toEqual([graded.id, card.id]);

    // Inline edit: only what changed; a new price without a source is the collector's own.
    const patched = await browser.patch(`/api/portfolio/${card.id}`, { currentPrice: '400', notes: 'From a show', userId: 'someone-else' });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ currentPrice: '400.00', priceSource: 'Manual entry', notes: 'From a show', userId: user.id, cardName: 'Charizard' });
    const edited = await h.database.db
      .selectFrom('es_events')
      .select(['event_type', 'data'])
      .where('stream_id', '=', `portfolio-card-${card.id}`)
      .orderBy('stream_position')
      .execute();
    expect(edited.map((e) => e.event_type)).toEqual(['PortfolioCardAdded', 'PortfolioCardPriced', 'PortfolioCardEdited', 'PortfolioCardPriced']);
    expect((edited[2]!.data as { changes: object }).changes).toEqual({ notes: 'From a show' });

    // Detail edit: the detail page's fields; one left out is cleared.
    const put = await browser.put(`/api/portfolio/${card.id}`, { cardName: 'Charizard Holo', cardSet: 'Base Set', currentPrice: 400, acquisitionPrice: '120.5', rarity: 'Holo' });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ cardName: 'Charizard Holo', notes: null, cardNumber: null, cardYear: null, condition: null, rarity: 'Holo', acquisitionPrice: '120.50', currentPrice: '400.00', priceSource: 'Manual entry' });

    const detail = portfolioCardDetailSchema.parse((await browser.get(`/api/portfolio/${card.id}`)).json());
    const today = newYorkDate(new Date());
    expect(detail.priceHistory.map((p) => [p.price, p.source, p.priceDate])).toEqual([
      ['350.10', 'TCGplayer', today],
      ['400.00', 'Manual entry', today],
    ]);

    // The value chart: today's value and cost basis, exact.
    const points = ((await browser.get('/api/portfolio/value-history')).json() as unknown[]).map((p) => portfolioValuePointSchema.parse(p));
    expect(points.at(-1)).toEqual({ date: today, value: '100000399.99', cost: '120.50' });

    const deleted = await browser.delete(`/api/portfolio/${card.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ message: 'Card Deleted' });
    // A retried delete succeeds; the card is gone.
    expect((await browser.delete(`/api/portfolio/${card.id}`)).statusCode).toBe(200);
    await expectRefused(await browser.get(`/api/portfolio/${card.id}`), 404, 'portfolio_card_not_found', 'Card not found');
    await expectRefused(await browser.patch(`/api/portfolio/${card.id}`, { notes: 'x' }), 404, 'portfolio_card_not_found');
    expect(((await browser.get('/api/portfolio')).json() as PortfolioCard[]).map((c) => c.id)).toEqual([graded.id]);
    // Removed today, the card is not in today's value or cost; its prices stay for the days it was held.
    const after = ((await browser.get('/api/portfolio/value-history')).json() as unknown[]).map((p) => portfolioValuePointSchema.parse(p));
    expect(after.at(-1)).toEqual({ date: today, value: '99999999.99', cost: '0.00' });
    const history = await h.database.db.selectFrom('portfolio_price_history').select('id').where('portfolio_card_id', '=', card.id).execute();
    expect(history).toHaveLength(2);
  });

  it('serves the list from a snapshot that follows every change, and revalidates with its ETag', async () => {
    const { browser } = await h.registered();
    const first = await browser.get('/api/portfolio');
    expect(first.json()).toEqual([]);
    const etag = first.headers.etag as string;
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const revalidated = await browser.send({ method: 'GET', url: '/api/portfolio', headers: { 'if-none-match': etag } });
    expect(revalidated.statusCode).toBe(304);

    const card = await add(browser, { cardName: 'Gengar', currentPrice: '5.00' });
    const seen: string[] = [etag];
    const expectChanged = async (check: (cards: PortfolioCard[]) => void) => {
      const response = await browser.send({ method: 'GET', url: '/api/portfolio', headers: { 'if-none-match': seen.at(-1)! } });
      expect(response.statusCode).toBe(200);
      expect(seen).not.toContain(response.headers.etag);
      seen.push(response.headers.etag as string);
      check(response.json() as PortfolioCard[]);
    };
    await expectChanged((cards) => expect(cards.map((c) => c.currentPrice)).toEqual(['5.00']));
    await browser.patch(`/api/portfolio/${card.id}`, { currentPrice: '6' });
    await expectChanged((cards) => expect(cards.map((c) => c.currentPrice)).toEqual(['6.00']));
    await browser.patch(`/api/portfolio/${card.id}`, { notes: 'spooky' });
    await expectChanged((cards) => expect(cards.map((c) => c.notes)).toEqual(['spooky']));
    await browser.delete(`/api/portfolio/${card.id}`);
    await expectChanged((cards) => expect(cards).toEqual([]));
    // Gzipped for browsers, the same JSON either way.
    const zipped = await browser.send({ method: 'GET', url: '/api/portfolio', headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
  });

  it('answers another user and a guest on every route as if the card did not exist, and changes nothing', async () => {
    const owner = await h.registered();
    const card = await add(owner.browser, { cardName: 'Mewtwo', currentPrice: '10.00', acquisitionPrice: '5.00' });
    const other = await h.registered();
    const guest = h.browser();
    const before = await eventCount();

    const url = `/api/portfolio/${card.id}`;
    for (const response of [
      await other.browser.get(url),
      await other.browser.patch(url, { cardName: 'Stolen', currentPrice: '0' }),
      await other.browser.put(url, { cardName: 'Stolen' }),
      await other.browser.delete(url),
    ]) {
      await expectRefused(response, 404, 'portfolio_card_not_found', 'Card not found');
    }
    // The same answer as an id nobody has, and as something that is not an id.
    await expectRefused(await other.browser.get('/api/portfolio/2147483647'), 404, 'portfolio_card_not_found', 'Card not found');
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999', '1e3']) await expectRefused(await owner.browser.get(`/api/portfolio/${bad}`), 404, 'portfolio_card_not_found');
    expect((await other.browser.get('/api/portfolio')).json()).toEqual([]);
    expect((await other.browser.get('/api/portfolio/value-history')).json()).toEqual([]);

    for (const response of [
      await guest.get('/api/portfolio'),
      await guest.get('/api/portfolio/value-history'),
      await guest.post('/api/portfolio', { cardName: 'Guest card' }),
      await guest.get(url),
      await guest.patch(url, { cardName: 'Guest' }),
      await guest.put(url, { cardName: 'Guest' }),
      await guest.delete(url),
    ]) {
      await expectRefused(response, 401, 'unauthorized');
    }

    expect(await eventCount()).toBe(before);
    expect((await owner.browser.get(url)).json()).toMatchObject({ cardName: 'Mewtwo', currentPrice: '10.00' });
  });

  it('refuses malformed input with a clear 400 and writes nothing', async () => {
    const { browser } = await h.registered();
    const card = await add(browser, { cardName: 'Blastoise', currentPrice: '1.00' });
    const before = await eventCount();
    const rawJson = (method: 'POST' | 'PATCH', url: string, payload: string) =>
      browser.send({ method, url, headers: { 'content-type': 'application/json' }, payload });

    const refusals: [string, Promise<Awaited<ReturnType<Browser['get']>>>, RegExp][] = [
      ['1e309', rawJson('POST', '/api/portfolio', '{"cardName":"A","currentPrice":1e309}'), /^currentPrice: This must be an amount in dollars/],
      ['"abc"', browser.post('/api/portfolio', { cardName: 'A', currentPrice: 'abc' }), /^currentPrice: /],
      ['-1', browser.post('/api/portfolio', { cardName: 'A', acquisitionPrice: -1 }), /^acquisitionPrice: /],
      ['three decimals', browser.post('/api/portfolio', { cardName: 'A', currentPrice: '0.005' }), /at most two decimals/],
      ['11 digits', browser.post('/api/portfolio', { cardName: 'A', currentPrice: '12345678901' }), /^currentPrice: /],
      ['100,000,000', browser.post('/api/portfolio', { cardName: 'A', currentPrice: 100_000_000 }), /99,999,999\.99/],
      ['no name', browser.post('/api/portfolio', { cardSet: 'Jungle' }), /^cardName: /],
      ['blank name', browser.post('/api/portfolio', { cardName: '   ' }), /Card name is required/],
      ['256-character name', browser.post('/api/portfolio', { cardName: 'x'.repeat(256) }), /at most 255 characters/],
      ['51-character number', browser.post('/api/portfolio', { cardName: 'A', cardNumber: '1'.repeat(51) }), /^cardNumber: .*at most 50/],
      ['11-character year', browser.post('/api/portfolio', { cardName: 'A', cardYear: '19999999999' }), /^cardYear: .*at most 10/],
      ['grade 11', browser.post('/api/portfolio', { cardName: 'A', isGraded: true, gradingCompany: 'PSA', officialGrade: 11 }), /at most 10/],
      ['grade 9.55', browser.post('/api/portfolio', { cardName: 'A', isGraded: true, gradingCompany: 'PSA', officialGrade: 9.55 }), /steps of 0.1/],
      ['unknown company', browser.post('/api/portfolio', { cardName: 'A', isGraded: true, gradingCompany: 'XYZ' }), /^gradingCompany: /],
      ['company on a raw card', browser.post('/api/portfolio', { cardName: 'A', gradingCompany: 'PSA' }), /only for a card marked as graded/],
      ['javascript: image', browser.post('/api/portfolio', { cardName: 'A', imageUrl: 'javascript:alert(1)' }), /http or https/],
      ['not a date', browser.post('/api/portfolio', { cardName: 'A', acquisitionDate: '2026-02-30' }), /^acquisitionDate: /],
      ['NUL in a name', browser.post('/api/portfolio', { cardName: 'A\u0000B' }), /control character/],
      ['inline grade 9.3', browser.patch(`/api/portfolio/${card.id}`, { isGraded: true, gradingCompany: 'PSA', officialGrade: 9.3 }), /steps of 0.5/],
      ['inline grade 0.5', browser.patch(`/api/portfolio/${card.id}`, { isGraded: true, gradingCompany: 'PSA', officialGrade: 0.5 }), /at least 1/],
      ['inline price 1e309', rawJson('PATCH', `/api/portfolio/${card.id}`, '{"currentPrice":1e309}'), /^currentPrice: /],
      ['inline blank name', browser.patch(`/api/portfolio/${card.id}`, { cardName: '' }), /Card name is required/],
      ['detail edit without a name', browser.put(`/api/portfolio/${card.id}`, { cardSet: 'Jungle' }), /^cardName: /],
      ['detail price "abc"', browser.put(`/api/portfolio/${card.id}`, { cardName: 'B', currentPrice: 'abc' }), /^currentPrice: /],
    ];
    for (const [name, pending, message] of refusals) {
      const response = await pending;
      expect({ name, status: response.statusCode }).toEqual({ name, status: 400 });
      expect({ name, error: (response.json() as { error: string }).error }).toEqual({ name, error: expect.stringMatching(message) });
    }
    // Not JSON at all, and a body over the server's limit.
    await expectRefused(await rawJson('POST', '/api/portfolio', '{"cardName":'), 400, 'invalid_json');
    const huge = await rawJson('POST', '/api/portfolio', JSON.stringify({ cardName: 'A', notes: 'x'.repeat(2 * 1024 * 1024) }));
    expect(huge.statusCode).toBe(413);

    expect(await eventCount()).toBe(before);
    expect((await browser.get('/api/portfolio')).json()).toHaveLength(1);
    expect((await browser.get('/healthz')).statusCode).toBe(200);
  });

  it('keeps the boundaries of decimal(10,2) and the text lengths of SPEC.md §3', async () => {
    const { browser } = await h.registered();
    const card = await add(browser, {
      cardName: 'n'.repeat(255),
      cardSet: 's'.repeat(255),
      cardNumber: '9'.repeat(50),
      cardYear: '1'.repeat(10),
      condition: 'c'.repeat(100),
      rarity: 'r'.repeat(100),
      category: 'k'.repeat(50),
      priceSource: 'p'.repeat(100),
      currentPrice: '0.01',
      acquisitionPrice: '99999999.99',
    });
    expect(card).toMatchObject({ currentPrice: '0.01', acquisitionPrice: '99999999.99', category: 'k'.repeat(50) });
    expect(card.cardName).toHaveLength(255);
    // An edit to the same values records nothing.
    const before = await eventCount();
    expect((await browser.patch(`/api/portfolio/${card.id}`, { currentPrice: 0.01, acquisitionPrice: '99999999.99', cardName: 'n'.repeat(255) })).statusCode).toBe(200);
    expect(await eventCount()).toBe(before);
  });

  it('analyses photos sent as base64 or URLs, and the analysed card is added with its pictures', async () => {
    const { browser } = await h.registered();
    const gem = await samplePhoto(1);
    const scratched = await samplePhoto(4);
    const analysed = await browser.post('/api/analyze-card-images', { frontImage: `data:image/jpeg;base64,${gem.toString('base64')}`, backImage: scratched.toString('base64') });
    expect(analysed.statusCode, analysed.body).toBe(200);
    const result = analysisResultSchema.parse(analysed.json());
    expect(result).toMatchObject({ isGraded: false, gradingCompany: null, grade: null, category: 'Pokemon Card' });
    expect(result.estimatedGrade).toBeGreaterThanOrEqual(1);
    expect(['Near Mint', 'Lightly Played', 'Moderately Played', 'Heavily Played']).toContain(result.condition);
    expect(result.imageUrl).toMatch(/^\/api\/images\/[0-9a-f]{64}$/);
    expect((await browser.get(result.imageUrl)).statusCode).toBe(200);
    expect(result.backImageUrl).toMatch(/^\/api\/images\/[0-9a-f]{64}$/);
    // Offline and unidentified: no invented price.
    if (result.price === null) expect(result.estimatedPrice).toBe('N/A');
    const card = await add(browser, cardFromAnalysis(result));
    expect(card).toMatchObject({ cardName: result.cardName, category: 'Pokemon Card', estimatedGrade: result.estimatedGrade, imageUrl: result.imageUrl, isGraded: false });

    // A URL, fetched under grading's address rules.
    const server = await startPhotoServer({ 'gem.jpg': gem });
    try {
      const byUrl = await browser.post('/api/analyze-card-images', { frontImage: `${server.origin}/gem.jpg` });
      expect(byUrl.statusCode, byUrl.body).toBe(200);
      expect(analysisResultSchema.parse(byUrl.json()).backImageUrl).toBeNull();
    } finally {
      await server.close();
    }
  });

  it('reads a slabbed card as professionally graded, its grader and grade from the label, and adds it so; the same card raw is not', async () => {
    const { browser } = await h.registered();
    const drawn = { pxPerMm: 12, borderColor: '#e8c33a', lettering: { name: 'Charizard' }, photo: { noise: 3 } };
    const slab = { company: 'PSA', gradeText: 'GEM MT 10', cert: '84512377', year: '1999 POKEMON GAME', name: 'CHARIZARD-HOLO' };
    const analyse = async (photo: Uint8Array) => {
      const response = await browser.post('/api/analyze-card-images', { frontImage: `data:image/jpeg;base64,${Buffer.from(photo).toString('base64')}` });
      expect(response.statusCode, response.body).toBe(200);
      return analysisResultSchema.parse(response.json());
    };
    const [slabbed, raw] = await Promise.all([analyse(await renderSyntheticCard({ ...drawn, photo: { ...drawn.photo, slab } }, 41)), analyse(await renderSyntheticCard(drawn, 41))]);
    expect(slabbed).toMatchObject({ isGraded: true, gradingCompany: 'PSA', grade: 10 });
    expect(raw).toMatchObject({ isGraded: false, gradingCompany: null, grade: null });
    // The engine's grade of the card itself, in or out of the slab.
    expect(Math.abs(slabbed.estimatedGrade! - raw.estimatedGrade!)).toBeLessThanOrEqual(0.5);
    expect(await add(browser, cardFromAnalysis(slabbed))).toMatchObject({ isGraded: true, gradingCompany: 'PSA', officialGrade: 10 });
    expect(await add(browser, cardFromAnalysis(raw))).toMatchObject({ isGraded: false, gradingCompany: null, officialGrade: null });
  });

  it('refuses analysis to a guest, of private addresses, of what is not an image, and of a 20 MB body', async () => {
    const gem = (await samplePhoto(1)).toString('base64');
    await expectRefused(await h.browser().post('/api/analyze-card-images', { frontImage: gem }), 401, 'unauthorized');
    const { browser } = await h.registered();
    const before = await eventCount();
    await expectRefused(await browser.post('/api/analyze-card-images', { frontImage: 'http://169.254.169.254/latest/meta-data/' }), 400, 'image_url_link_local', /^Front image URL: /);
    await expectRefused(await browser.post('/api/analyze-card-images', { frontImage: gem, backImage: 'http://10.0.0.5/back.jpg' }), 400, 'image_url_private_address', /^Back image URL: /);
    await expectRefused(await browser.post('/api/analyze-card-images', { frontImage: 'not base64 at all!' }), 400, 'invalid_image_data');
    await expectRefused(await browser.post('/api/analyze-card-images', {}), 400, 'invalid_request', /^frontImage: /);
    const notAnImage = await browser.post('/api/analyze-card-images', { frontImage: Buffer.from('just some text, not a photo').toString('base64') });
    expect(notAnImage.statusCode).toBeGreaterThanOrEqual(400);
    expect(notAnImage.statusCode).toBeLessThan(500);
    const huge = await browser.send({
      method: 'POST',
      url: '/api/analyze-card-images',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ frontImage: 'A'.repeat(20 * 1024 * 1024) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(await eventCount()).toBe(before);
    expect((await browser.get('/healthz')).statusCode).toBe(200);
  });

  it('rebuilds the portfolio read models equal, row for row, to the live ones', async () => {
    const { browser } = await h.registered();
    for (let i = 0; i < 12; i++) {
      const card = await add(browser, { cardName: `Card ${i}`, currentPrice: `${i}.${i % 10}5`, acquisitionPrice: i % 3 === 0 ? null : `${i * 2}` });
      if (i % 2 === 0) await browser.patch(`/api/portfolio/${card.id}`, { currentPrice: `${i + 1}.00`, priceSource: 'eBay sold', rarity: 'Rare' });
      if (i % 4 === 1) await browser.delete(`/api/portfolio/${card.id}`);
    }
    const rows = async () => ({
      cards: (await sql`select * from portfolio_cards order by id`.execute(h.database.db)).rows,
      prices: (await sql`select * from portfolio_price_history order by id`.execute(h.database.db)).rows,
      versions: (await sql`select * from portfolio_versions order by owner`.execute(h.database.db)).rows,
      holdings: (await sql<Record<string, unknown>>`select * from portfolio_holdings order by card_id`.execute(h.database.db)).rows,
    });
    const live = await rows();
    expect(live.cards.length).toBeGreaterThan(0);
    expect(live.holdings.filter((row) => row.removed_at !== null).length).toBeGreaterThan(0);
    await sql`update portfolio_cards set current_price = 1234 where id = (select min(id) from portfolio_cards)`.execute(h.database.db);
    await sql`delete from portfolio_price_history where id = (select min(id::text)::uuid from portfolio_price_history)`.execute(h.database.db);
    const projection = inlineProjections.find((p) => p.name === 'portfolio')!;
    await rebuildProjection(h.database, h.runtime.eventStore, projection, 'inline', { batchSize: 7 });
    expect(await rows()).toEqual(live);
  });
});
