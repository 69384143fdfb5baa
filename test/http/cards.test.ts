import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardResultSchema, collectionCardSchema } from '../../src/contracts/cards.ts';
import { createSessionRepository } from '../../src/infra/auth/session-repository.ts';
import { renderSyntheticCard } from '../../src/vision/index.ts';
import { routeDatabaseKind } from '../support/database.ts';
import { expectRefused, samplePhoto, startCardsApp, startPhotoServer, type CardsHarness } from './cards-harness.ts';

// Grading a card end to end through the real app: the engine, the image store, the card stream and the
// card_grades read model; the shared card, the collection, delete, guests' cards at sign-in, sample cards.

const jpeg = (bytes: Uint8Array, filename = 'card.jpg') => ({ bytes, type: 'image/jpeg', filename });

describe.each([await routeDatabaseKind()])('cards API on %s', (kind) => {
  let h: CardsHarness;
  let photos: { origin: string; close(): Promise<void> };
  let gem: Buffer;
  let offCenter: Buffer;
  let scratched: Buffer;

  beforeAll(async () => {
    h = await startCardsApp(kind);
    [gem, offCenter, scratched] = await Promise.all([samplePhoto(1), samplePhoto(2), samplePhoto(4)]);
    photos = await startPhotoServer({ 'front.jpg': scratched, 'back.jpg': offCenter });
  });

  afterAll(async () => {
    await photos?.close();
    await h?.close();
  });

  async function eventCount(): Promise<number> {
    const row = await h.database.db.selectFrom('es_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  describe('POST /api/grade-card', () => {
    it('grades an uploaded front, with the result of SPEC.md §3 and its evidence; saved, it joins the grader\'s collection', async () => {
      const guest = h.browser();
      const response = await guest.grade([['frontImage', jpeg(gem)], ['cardType', 'pokemon']]);
      expect(response.statusCode).toBe(200);
      const result = cardResultSchema.parse(response.json());
      expect(result.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(result).toMatchObject({
        cardType: 'pokemon',
        overallGrade: 10,
        grades: { centering: 10, corners: 10, edges: 10, surface: 10 },
        centeringVerdict: 'Good Centering',
        condition: 'Near Mint',
        backImageUrl: null,
        annotatedBackImageUrl: null,
        estimatedValue: 'N/A',
        // The format found from the card's outline, whose millimetres every measure is in (issue 30).
        cardFormat: { id: 'standard', widthMm: 63, heightMm: 88 },
      });
      expect(result.frontGrades).toBeUndefined();
      expect(result.measurements.front.corners).toHaveLength(4);
      expect(result.imageUrl).toMatch(/^\/api\/images\/[0-9a-f]{64}$/);
      expect(result.annotatedImageUrl).toMatch(/^\/api\/images\/[0-9a-f]{64}$/);

      // The photo and the annotated picture are stored and served.
      const photo = await guest.get(result.imageUrl!);
      expect(photo.statusCode).toBe(200);
      expect(photo.rawPayload.equals(gem)).toBe(true);
      const annotated = await guest.get(result.annotatedImageUrl!);
      expect(annotated.headers['content-type']).toBe('image/png');

      // Grading is not saving (issue 18): not in the collection until saved, by its id or by the images alone.
      expect((await guest.get('/api/my-cards')).json()).toEqual([]);
      const saved = await guest.post(`/api/card/${result.id}/save`);
      expect(saved.json()).toEqual(response.json());
      const mine = (await guest.get('/api/my-cards')).json();
      expect(mine).toHaveLength(1);
      expect(collectionCardSchema.parse(mine[0])).toMatchObject({ id: result.id, userId: null, cardName: result.cardName, overallGrade: 10 });
    });

    it('gives the same card for the same images from the same grader, without grading again (save to collection)', async () => {
      const b = h.browser();
      const first = (await b.grade([['frontImage', jpeg(offCenter)], ['backImage', jpeg(gem)]])).json();
      const events = await eventCount();
      const again = await b.grade([['frontImage', jpeg(offCenter, 'other-name.jpg')], ['backImage', jpeg(gem)]]);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(first);
      expect(await eventCount()).toBe(events);
      expect((await b.get('/api/my-cards')).json()).toHaveLength(1);

      // Two sides: each side's grades, 60/40 overall.
      expect(first.frontGrades).toBeDefined();
      expect(first.backGrades).toBeDefined();
      expect(first.backImageUrl).toMatch(/^\/api\/images\//);
      expect(first.overallGrade).toBeCloseTo(0.6 * first.frontOverall + 0.4 * first.backOverall, 1);

      // Front only is another card; another grader's copy is another card too.
      const frontOnly = (await b.grade([['frontImage', jpeg(offCenter)]])).json();
      expect(frontOnly.id).not.toBe(first.id);
      const other = (await h.browser().grade([['frontImage', jpeg(offCenter)], ['backImage', jpeg(gem)]])).json();
      expect(other.id).not.toBe(first.id);
      expect(other.overallGrade).toBe(first.overallGrade);
    });

    it('records one card when the same upload arrives twice at once', async () => {
      const b = h.browser();
      // The guest session comes with the guest's first write (a read makes none), before the two requests race.
      expect((await b.grade([['frontImage', jpeg(gem)]])).statusCode).toBe(200);
      const [first, second] = await Promise.all([b.grade([['frontImage', jpeg(scratched)], ['backImage', jpeg(scratched)]]), b.grade([['frontImage', jpeg(scratched)], ['backImage', jpeg(scratched)]])]);
      expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
      expect(second.json()).toEqual(first.json());
      const { events } = await h.runtime.eventStore.readStream(`card-${first.json().id}`);
      // Sent with the images alone, the call saves too (SPEC.md §7): graded once, saved once.
      expect(events.map((e) => e.type)).toEqual(['CardGraded', 'CardSaved']);
    });

    it('grades from image URLs (front and back), fetched and stored like uploads', async () => {
      const b = h.browser();
      const response = await b.grade([
        ['frontImageUrl', `  ${photos.origin}/front.jpg  `],
        ['backImageUrl', `${photos.origin}/back.jpg`],
        ['cardType', 'pokemon'],
      ]);
      expect(response.statusCode).toBe(200);
      const result = response.json();
      expect(result.grades.surface).toBeLessThan(9);
      expect(result.backGrades).toBeDefined();
      expect((await b.get(result.imageUrl)).rawPayload.equals(scratched)).toBe(true);

      // The same URLs again: the same card. Uploading the same bytes is the same card as well.
      expect((await b.grade([['frontImageUrl', `${photos.origin}/front.jpg`], ['backImageUrl', `${photos.origin}/back.jpg`]])).json().id).toBe(result.id);
      expect((await b.grade([['frontImage', jpeg(scratched)], ['backImage', jpeg(offCenter)]])).json().id).toBe(result.id);
      expect((await b.get('/api/my-cards')).json()).toHaveLength(1);
    });

    it('refuses without a front, with the message of SPEC.md §5', async () => {
      const b = h.browser();
      const message = 'Please upload at least the front of your card';
      await expectRefused(await b.grade([['cardType', 'pokemon']]), 400, 'missing_front_image', message);
      await expectRefused(await b.grade([['frontImageUrl', '   '], ['backImage', jpeg(gem)]]), 400, 'missing_front_image', message);
      // A form's empty file input: no name, no bytes.
      await expectRefused(await b.grade([['frontImage', { bytes: new Uint8Array(), filename: '', type: 'application/octet-stream' }]]), 400, 'missing_front_image');
    });

    it('keeps the engine\'s refusals: code, status and message', async () => {
      const b = h.browser();
      const before = await eventCount();
      const blank = await renderSyntheticCard({ variant: 'blank', pxPerMm: 6 }, 1);
      await expectRefused(await b.grade([['frontImage', jpeg(blank)]]), 422, 'blank_image');
      const noCard = await renderSyntheticCard({ variant: 'no-card', pxPerMm: 6 }, 2);
      await expectRefused(await b.grade([['frontImage', jpeg(noCard)], ['backImage', jpeg(gem)]]), 422, 'no_card_found', /^Front photo: /);
      await expectRefused(await b.grade([['frontImage', { bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), type: 'image/svg+xml' }]]), 415, 'not_an_image');
      await expectRefused(await b.grade([['frontImage', jpeg(gem.subarray(0, 400))]]), 422, 'truncated_image');
      expect(await eventCount()).toBe(before);
      expect((await b.get('/api/my-cards')).json()).toEqual([]);
    });

    it('refuses malformed uploads with a clear 4xx and stays up', async () => {
      const b = h.browser();
      await expectRefused(await b.grade([['frontImage', jpeg(gem)], ['photo', jpeg(gem)]]), 400, 'unexpected_field', /'photo'/);
      await expectRefused(await b.grade([['frontImage', jpeg(gem)], ['frontImage', jpeg(gem)]]), 400, 'unexpected_field');
      await expectRefused(await b.grade([['frontImage', jpeg(gem)], ['userId', 'someone-else']]), 400, 'unexpected_field', /'userId'/);
      await expectRefused(await b.grade([['frontImage', jpeg(gem)], ['frontImageUrl', `${photos.origin}/front.jpg`]]), 400, 'front_image_twice');
      await expectRefused(await b.grade([['frontImage', jpeg(gem)], ['cardType', 'x'.repeat(51)]]), 400, 'invalid_request', /^cardType: /);

      const huge = Buffer.concat([gem, Buffer.alloc(10 * 1024 * 1024)]);
      await expectRefused(await b.grade([['frontImage', jpeg(huge)]]), 413, 'upload_too_large', 'The front image is larger than 10 MB. Please use a smaller photo.');

      await expectRefused(await b.post('/api/grade-card', { frontImageUrl: `${photos.origin}/front.jpg` }), 415, 'multipart_required');
      const garbled = await b.send({
        method: 'POST',
        url: '/api/grade-card',
        headers: { 'content-type': 'multipart/form-data; boundary=----x' },
        payload: '------x\r\nContent-Disposition: form-data; name="frontImage"; filename="a.jpg"\r\n\r\nnot finished',
      });
      await expectRefused(garbled, 400, 'invalid_multipart', 'The upload is not a well-formed multipart/form-data body.');
      const noBoundary = await b.send({ method: 'POST', url: '/api/grade-card', headers: { 'content-type': 'multipart/form-data' }, payload: 'x' });
      await expectRefused(noBoundary, 400, 'invalid_multipart');

      // Still up, still grading.
      expect((await b.grade([['frontImage', jpeg(gem)]])).statusCode).toBe(200);
    });

    it('keeps the fetcher\'s refusals of image URLs', async () => {
      const b = h.browser();
      await expectRefused(await b.grade([['frontImageUrl', `${photos.origin}/missing.jpg`]]), 422, 'image_download_http_error');
      await expectRefused(await b.grade([['frontImageUrl', 'not a url']]), 400, 'image_url_invalid');
      await expectRefused(
        await b.grade([['frontImageUrl', `${photos.origin}/front.jpg`], ['backImageUrl', 'http://169.254.169.254/latest/meta-data/']]),
        400,
        'image_url_link_local',
        /^Back image URL: /,
      );
    });
  });

  describe('the shared card and the collection', () => {
    it('lets anyone with the id read a card, and nobody read another\'s collection', async () => {
      const owner = await h.registered();
      const graded = (await owner.browser.grade([['frontImage', jpeg(scratched)]])).json();

      for (const reader of [h.browser(), (await h.registered()).browser]) {
        const shared = await reader.get(`/api/card/${graded.id}`);
        expect(shared.statusCode).toBe(200);
        // A stranger is told the card is not theirs: the page offers them sharing only.
        expect(shared.json()).toEqual({ ...graded, yours: false, portfolioCardId: null });
        const theirs = (await reader.get('/api/my-cards')).json() as { id: string }[];
        expect(theirs.map((c) => c.id)).not.toContain(graded.id);
      }
      expect((await owner.browser.get(`/api/card/${graded.id}`)).json()).toEqual({ ...graded, yours: true, portfolioCardId: null });
      const mine = (await owner.browser.get('/api/my-cards')).json();
      expect(mine).toEqual([expect.objectContaining({ id: graded.id, userId: owner.user.id })]);
    });

    it('lists the caller\'s cards newest first', async () => {
      const { browser } = await h.registered();
      const first = (await browser.grade([['frontImage', jpeg(gem)]])).json();
      const second = (await browser.grade([['frontImage', jpeg(offCenter)]])).json();
      const ids = ((await browser.get('/api/my-cards')).json() as { id: string }[]).map((c) => c.id);
      expect(ids).toEqual([second.id, first.id]);
    });

    it('lets the browser revalidate the collection, and never answers with a stale one', async () => {
      const { browser } = await h.registered();
      const empty = await browser.get('/api/my-cards');
      expect(empty.json()).toEqual([]);
      expect(empty.headers['cache-control']).toBe('private, no-cache');
      const etag = empty.headers.etag as string;
      const revalidated = await browser.send({ method: 'GET', url: '/api/my-cards', headers: { 'if-none-match': etag } });
      expect(revalidated.statusCode).toBe(304);

      const card = (await browser.grade([['frontImage', jpeg(scratched)]])).json();
      const changed = await browser.send({ method: 'GET', url: '/api/my-cards', headers: { 'if-none-match': etag } });
      expect(changed.statusCode).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
      expect(changed.json().map((c: { id: string }) => c.id)).toEqual([card.id]);
      // Gzipped for a client that takes it (every browser), the same JSON.
      const zipped = await browser.send({ method: 'GET', url: '/api/my-cards', headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(gunzipSync(zipped.rawPayload).toString())).toEqual(changed.json());
      // Many readers at once see the same, current collection.
      const many = await Promise.all(Array.from({ length: 8 }, () => browser.get('/api/my-cards')));
      expect(new Set(many.map((r) => r.body)).size).toBe(1);
      expect(many[0]!.json()).toEqual(changed.json());
    });

    it('answers an unknown or malformed id with 404', async () => {
      const b = h.browser();
      await expectRefused(await b.get('/api/card/AAAAAAAAAAAAAAAAAAAAAA'), 404, 'card_not_found', 'Card not found');
      await expectRefused(await b.get('/api/card/..%2F..%2Fetc'), 404, 'card_not_found');
      await expectRefused(await b.delete('/api/card/AAAAAAAAAAAAAAAAAAAAAA'), 404, 'card_not_found');
    });

    it('lets only the owner delete a card; to anyone else it does not exist, and nothing changes', async () => {
      const owner = await h.registered();
      const card = (await owner.browser.grade([['frontImage', jpeg(offCenter)]])).json();
      const stream = `card-${card.id}`;
      const before = await h.runtime.eventStore.readStream(stream);

      for (const other of [h.browser(), (await h.registered()).browser]) {
        await expectRefused(await other.delete(`/api/card/${card.id}`), 404, 'card_not_found', 'Card not found');
      }
      expect((await h.runtime.eventStore.readStream(stream)).version).toBe(before.version);
      expect((await h.browser().get(`/api/card/${card.id}`)).statusCode).toBe(200);
      expect((await owner.browser.get('/api/my-cards')).json()).toHaveLength(1);

      const deleted = await owner.browser.delete(`/api/card/${card.id}`);
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toEqual({ message: 'Card deleted from your collection' });
      expect((await owner.browser.get('/api/my-cards')).json()).toEqual([]);
      await expectRefused(await h.browser().get(`/api/card/${card.id}`), 404, 'card_not_found');
      // Deleting again succeeds (a retried delete); grading again brings it back under the same id.
      expect((await owner.browser.delete(`/api/card/${card.id}`)).statusCode).toBe(200);
      expect((await owner.browser.grade([['frontImage', jpeg(offCenter)]])).json().id).toBe(card.id);
      expect((await owner.browser.get('/api/my-cards')).json()).toHaveLength(1);
    });

    it('refuses a delete without this site\'s Origin', async () => {
      const owner = await h.registered();
      const card = (await owner.browser.grade([['frontImage', jpeg(gem)]])).json();
      const forged = await owner.browser.send({ method: 'DELETE', url: `/api/card/${card.id}`, headers: { origin: 'https://evil.example' } });
      await expectRefused(forged, 403, 'bad_origin');
      expect((await owner.browser.get('/api/my-cards')).json()).toHaveLength(1);
    });

    it('moves a guest\'s cards to the account at sign-in', async () => {
      const b = h.browser();
      const card = (await b.grade([['frontImage', jpeg(scratched)], ['backImage', jpeg(gem)]])).json();
      expect((await b.get('/api/my-cards')).json()).toHaveLength(1);

      const { id: userId } = await h.signUp(b);

      const mine = (await b.get('/api/my-cards')).json();
      expect(mine).toEqual([expect.objectContaining({ id: card.id, userId })]);
      // The same id, now the user's: they can delete it; other guests still cannot.
      await expectRefused(await h.browser().delete(`/api/card/${card.id}`), 404, 'card_not_found');
      const { events } = await h.runtime.eventStore.readStream(`card-${card.id}`);
      expect(events.map((e) => e.type)).toEqual(['CardGraded', 'CardSaved', 'CardOwnerChanged']);
    });
  });

  describe('POST /api/restore-sample-cards', () => {
    it('grades the sample cards shipped with the app into the caller\'s collection, once', async () => {
      const { browser } = await h.registered();
      const response = await browser.post('/api/restore-sample-cards');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: 'Restored 5 sample cards' });
      const cards = (await browser.get('/api/my-cards')).json() as { id: string; cardName: string; overallGrade: number; grades: { corners: number } }[];
      expect(cards).toHaveLength(5);
      // Named by OCR off their name bands, offline.
      expect(cards.map((c) => c.cardName).sort()).toEqual(['Blastoise', 'Charizard', 'Gyarados', 'Mewtwo', 'Pikachu']);
      // Really graded: the gem is a 10, the others show their flaws.
      expect(cards.map((c) => c.overallGrade).sort()).toContain(10);
      expect(Math.min(...cards.map((c) => c.grades.corners))).toBeLessThan(9);

      const events = await eventCount();
      expect((await browser.post('/api/restore-sample-cards')).json()).toEqual({ message: 'Restored 5 sample cards' });
      expect(await eventCount()).toBe(events);
      expect((await browser.get('/api/my-cards')).json()).toHaveLength(5);
    });
  });

  describe('POST /api/sync-instant-grades', () => {
    it('says the built-in provider has nothing to sync', async () => {
      const { browser } = await h.registered();
      const response = await browser.send({ method: 'POST', url: '/api/sync-instant-grades', headers: { 'content-type': 'application/json' }, payload: '{}' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        message: 'Nothing to sync: your account uses the built-in provider, so there are no instant grades elsewhere.',
        importedCards: [],
        newAchievements: [],
      });
    });

    it('needs a signed-in user', async () => {
      await expectRefused(await h.browser().post('/api/sync-instant-grades'), 401, 'unauthorized');
    });

    it('needs a provider token on the user (SPEC.md §6)', async () => {
      // An account without one, as an external provider's adapter could leave it.
      const userId = randomUUID();
      const at = new Date().toISOString();
      await h.runtime.eventStore.append(
        `user-${userId}`,
        'user',
        [
          {
            type: 'UserRegistered',
            data: { userId, username: `tokenless-${kind}`, email: `tokenless-${kind}@example.com`, passwordHash: '$argon2id$x', firstName: null, lastName: null, phone: null, marketingNotificationsEnabled: false, providerUserId: null, providerToken: null, registeredAt: at },
            metadata: { actor: { kind: 'system', id: 'test' }, commandId: randomUUID(), timestamp: at },
          },
        ],
        { expected: 'no_stream' },
      );
      const b = h.browser();
      b.jar.sid = (await createSessionRepository(h.database.db, h.runtime.clock, h.runtime.ids).create(userId)).token;
      await expectRefused(await b.post('/api/sync-instant-grades'), 400, 'provider_token_missing', 'Syncing instant grades needs an account linked to a grading provider.');
    });
  });
});
