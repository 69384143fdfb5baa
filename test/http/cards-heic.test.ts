import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardResultSchema } from '../../src/contracts/cards.ts';
import { routeDatabaseKind } from '../support/database.ts';
import { heicFixture } from '../vision/heic-fixture.ts';
import { expectRefused, samplePhoto, startCardsApp, type CardsHarness } from './cards-harness.ts';

// An iPhone's photo as it saves it (issue 17): a HEIC graded through the real app (the decode in the CPU pool), kept
// as sent, and shown on the pages as a JPEG, since browsers but Safari cannot draw HEIC.

const heicPart = (bytes: Uint8Array, type = 'image/heic') => ({ bytes, type, filename: 'IMG_0042.HEIC' });
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe.each([await routeDatabaseKind()])('HEIC photos through the API on %s', (kind) => {
  let h: CardsHarness;
  let heic: Buffer;

  beforeAll(async () => {
    h = await startCardsApp(kind);
    heic = await heicFixture();
  });

  afterAll(async () => {
    await h?.close();
  });

  it('given an iPhone HEIC, when graded, then the card is graded, the HEIC kept and the pages get a JPEG of it', async () => {
    const b = h.browser();
    const response = await b.grade([['frontImage', heicPart(heic)]]);
    expect(response.statusCode).toBe(200);
    const result = cardResultSchema.parse(response.json());
    expect(result.grades.corners).toBeLessThan(9);

    const shown = await b.get(result.imageUrl!);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toBe('image/jpeg');
    const { format, width, height } = await sharp(shown.rawPayload).metadata();
    expect([format, width, height]).toEqual(['jpeg', 1126, 1408]);
    // The file as sent is kept, under its own hash.
    const original = await b.get(`/api/images/${sha256(heic)}`);
    expect([original.statusCode, original.headers['content-type']]).toEqual([200, 'image/heic']);
    expect(original.rawPayload.equals(heic)).toBe(true);

    // The shared page and the collection show the JPEG too.
    const shared = h.browser();
    expect((await shared.get(`/api/card/${result.id}`)).json().imageUrl).toBe(result.imageUrl);
    expect((await b.post(`/api/card/${result.id}/save`)).statusCode).toBe(200);
    expect((await b.get('/api/my-cards')).json()[0].imageUrl).toBe(result.imageUrl);
  });

  it('given a HEIC with no type (a browser that does not know it), when graded, then it is read by its bytes', async () => {
    const response = await h.browser().grade([['frontImage', heicPart(heic, 'application/octet-stream')]]);
    expect(response.statusCode).toBe(200);
  });

  it('given a HEIC cut short, when graded, then 422 truncated_image like any damaged photo, and the server grades on', async () => {
    const b = h.browser();
    await expectRefused(await b.grade([['frontImage', heicPart(heic.subarray(0, heic.length >> 1))]]), 422, 'truncated_image', 'The photo is damaged or incomplete.');
    await expectRefused(await b.grade([['frontImage', heicPart(heic.subarray(0, 300))]]), 422, 'truncated_image');
    // A photo not graded before in this file (the harness reuses grades of the same bytes): the pool still works.
    expect((await b.grade([['frontImage', { bytes: await samplePhoto(3), type: 'image/jpeg' }]])).statusCode).toBe(200);
  });

  it('given a HEIC for the portfolio, when analysed, then its image is the JPEG copy', async () => {
    const { browser } = await h.registered();
    const analysed = await browser.post('/api/analyze-card-images', { frontImage: `data:image/heic;base64,${heic.toString('base64')}` });
    expect(analysed.statusCode).toBe(200);
    const image = await browser.get(analysed.json().imageUrl);
    expect(image.headers['content-type']).toBe('image/jpeg');
  });
});
