import { readdirSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_FORMATS_LABEL } from '../../src/contracts/image-formats.ts';
import { samplePhoto, startCardsApp, type CardsHarness } from '../http/cards-harness.ts';

// One list of formats (issue 20): what the messages name is what the decoder reads and the store keeps, and a
// refused photo writes nothing: no image, no annotated picture, no event. HEIC is read (issue 17): one that is
// only a header is damaged, not of a format we do not read.

function filesUnder(dir: string): number {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
  } catch {
    return 0;
  }
}

describe('photo formats', () => {
  let harness: CardsHarness;
  beforeAll(async () => {
    harness = await startCardsApp('pglite');
    // A card graded first, so the image folder holds files whose number must not change.
    expect((await harness.browser().grade([['frontImage', { bytes: await samplePhoto(1) }]])).statusCode).toBe(200);
  });
  afterAll(async () => harness?.close());

  const eventCount = async () => Number((await harness.database.db.selectFrom('es_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  it.each([
    ['a TIFF', async () => sharp(await samplePhoto(1)).tiff().toBuffer(), 'image/tiff', 415, 'not_an_image', `The file is not a photo we can read (${IMAGE_FORMATS_LABEL}).`],
    ['a HEIC header without its picture', async () => Buffer.from('0000001866747970686569630000000068656963000000000000', 'hex'), 'image/heic', 422, 'truncated_image', 'The photo is damaged or incomplete.'],
  ])('%s is refused, the message says why, and nothing is written', async (_name, bytes, type, status, code, error) => {
    const imagesDir = harness.config.imagesDir;
    const [filesBefore, eventsBefore] = [filesUnder(imagesDir), await eventCount()];
    expect(filesBefore).toBeGreaterThan(0);
    const response = await harness.browser().grade([['frontImage', { bytes: await bytes(), type, filename: 'card.tif' }]]);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ code, error });
    expect(IMAGE_FORMATS_LABEL).toBe('JPEG, PNG, WebP, HEIC, AVIF or GIF');
    expect(filesUnder(imagesDir)).toBe(filesBefore);
    expect(await eventCount()).toBe(eventsBefore);
  });
});
