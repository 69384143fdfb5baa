import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaderboardEntrySchema } from '../../src/contracts/cards.ts';
import { routeDatabaseKind } from '../support/database.ts';
import { samplePhoto, startCardsApp, type CardsHarness } from './cards-harness.ts';

// GET /api/leaderboard through the real app: kept by the async leaderboard projection the runtime runs.

describe.each([await routeDatabaseKind()])('leaderboard API on %s', (kind) => {
  let h: CardsHarness;
  beforeAll(async () => {
    h = await startCardsApp(kind);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('ranks signed-in graders by cards in their collection, once the projection has caught up; guests are not ranked', async () => {
    await h.catchUp();
    expect((await h.browser().get('/api/leaderboard')).json()).toEqual([]);

    const [one, two] = [await h.registered(), await h.registered()];
    const [gem, offCenter, scratched] = await Promise.all([samplePhoto(1), samplePhoto(2), samplePhoto(4)]);
    for (const bytes of [gem, offCenter]) expect((await two.browser.grade([['frontImage', { bytes }]])).statusCode).toBe(200);
    const single = (await one.browser.grade([['frontImage', { bytes: scratched }]])).json();
    const guest = h.browser();
    for (const bytes of [gem, offCenter, scratched]) await guest.grade([['frontImage', { bytes }]]);

    await h.catchUp();
    const board = (await h.browser().get('/api/leaderboard')).json();
    expect(board.map((entry: unknown) => leaderboardEntrySchema.parse(entry))).toEqual([
      { id: two.user.id, username: two.user.username, cardCount: 2 },
      { id: one.user.id, username: one.user.username, cardCount: 1 },
    ]);

    // A delete takes a card off; the guest's cards count once they move to an account.
    expect((await one.browser.delete(`/api/card/${single.id}`)).statusCode).toBe(200);
    const signedUp = await h.signUp(guest);
    await h.catchUp();
    const after = (await h.browser().get('/api/leaderboard')).json();
    expect(after).toEqual([
      { id: signedUp.id, username: signedUp.username, cardCount: 3 },
      { id: two.user.id, username: two.user.username, cardCount: 2 },
    ]);
  });

  it('lists up to `limit` graders for the full leaderboard, 10 by default, and refuses a limit out of 1..100', async () => {
    const graders = [];
    for (let i = 0; i < 11; i++) graders.push(await h.registered());
    const photo = await samplePhoto(2);
    for (const { browser } of graders) expect((await browser.grade([['frontImage', { bytes: photo }]])).statusCode).toBe(200);
    await h.catchUp();
    const stranger = h.browser();
    expect((await stranger.get('/api/leaderboard')).json()).toHaveLength(10);
    const full = (await stranger.get('/api/leaderboard?limit=100')).json() as { id: string }[];
    expect(full.length).toBeGreaterThanOrEqual(11);
    expect(full.map((entry) => entry.id)).toEqual(expect.arrayContaining(graders.map((g) => g.user.id)));
    expect((await stranger.get('/api/leaderboard?limit=3')).json()).toHaveLength(3);
    for (const limit of ['0', '101', 'all']) expect((await stranger.get(`/api/leaderboard?limit=${limit}`)).statusCode).toBe(400);
  });

  it('no public response carries the registering email or any part of it', async () => {
    const b = h.browser();
    const email = `jane.doe.private.${Date.now()}@example.com`;
    const registered = await b.post('/api/agscard/register', { first_name: 'Jane', last_name: 'Doe', email, phone: '5551234567', password: 'Secret123', password_confirmation: 'Secret123' });
    expect(registered.statusCode).toBe(201);
    expect(registered.json().user.username).toMatch(/^JaneD\d*$/);
    const card = (await b.grade([['frontImage', { bytes: await samplePhoto(3) }]])).json();
    await h.catchUp();
    const localPart = email.split('@')[0]!;
    const stranger = h.browser();
    for (const url of ['/api/leaderboard', `/api/card/${card.id}`]) {
      const body = (await stranger.get(url)).body;
      expect(body).not.toContain(localPart);
      expect(body).not.toContain('jane.doe');
    }
  });

  it('counts only the user\'s own saved grading: a grade left unsaved, sample cards and a photo saved twice (issue 18)', async () => {
    const { browser, user } = await h.registered();
    const mine = (entries: { id: string; cardCount: number }[]) => entries.find((entry) => entry.id === user.id);

    // Sample cards: in the collection, marked; no leaderboard place, no achievement.
    expect((await browser.post('/api/restore-sample-cards')).statusCode).toBe(200);
    const collection = (await browser.get('/api/my-cards')).json() as { id: string; sample: boolean }[];
    expect(collection).toHaveLength(5);
    expect(collection.every((card) => card.sample)).toBe(true);

    // A grade is recorded (its page works) but not saved. (A sample's picture with a back: another card than the sample.)
    const photo = await samplePhoto(5);
    const back = await samplePhoto(1);
    const graded = await browser.grade([['frontImage', { bytes: photo, type: 'image/jpeg' }], ['backImage', { bytes: back, type: 'image/jpeg' }], ['cardType', 'pokemon']]);
    expect(graded.statusCode).toBe(200);
    const cardId = graded.json().id as string;
    expect((await h.browser().get(`/api/card/${cardId}`)).statusCode).toBe(200);
    expect(((await browser.get('/api/my-cards')).json() as { id: string }[]).map((card) => card.id)).not.toContain(cardId);
    await h.catchUp();
    expect(mine((await h.browser().get('/api/leaderboard')).json())).toBeUndefined();
    expect((await browser.get('/api/achievements')).json()).toEqual([]);

    // Nobody else can save it; its owner can, and saving again (by id or by the images alone) is the same one card.
    expect((await h.browser().post(`/api/card/${cardId}/save`)).statusCode).toBe(404);
    const saved = await browser.post(`/api/card/${cardId}/save`);
    expect(saved.statusCode).toBe(200);
    expect(saved.json().id).toBe(cardId);
    expect((await browser.grade([['frontImage', { bytes: photo, type: 'image/jpeg' }], ['backImage', { bytes: back, type: 'image/jpeg' }]])).json().id).toBe(cardId);
    expect((await browser.post(`/api/card/${cardId}/save`)).statusCode).toBe(200);
    const after = (await browser.get('/api/my-cards')).json() as { id: string; sample: boolean }[];
    expect(after.filter((card) => card.id === cardId)).toEqual([expect.objectContaining({ id: cardId, sample: false })]);
    await h.catchUp();
    expect(mine((await h.browser().get('/api/leaderboard')).json())).toMatchObject({ cardCount: 1 });
    expect(((await browser.get('/api/achievements')).json() as { name: string }[]).map((a) => a.name)).toContain('First Grade');
    const { events } = await h.runtime.eventStore.readStream(`card-${cardId}`);
    expect(events.map((e) => e.type)).toEqual(['CardGraded', 'CardSaved']);
  });
});
