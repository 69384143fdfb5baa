import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { measurementRefusalDetailsSchema } from '../../src/contracts/measurement.ts';
import { renderSyntheticCard } from '../../src/vision/index.ts';
import { routeDatabaseKind } from '../support/database.ts';
import { expectRefused, startCardsApp, type CardsHarness } from './cards-harness.ts';

// The engine's refusals through the grading route keep what the engine found (issue 9), for the grade screen to
// draw: the outline in the uploaded photo's own pixels, the resolution reached and needed, the sides cut off.

const jpeg = (bytes: Uint8Array, filename = 'card.jpg') => ({ bytes, type: 'image/jpeg', filename });

describe.each([await routeDatabaseKind()])('grading refusals carry their details on %s', (kind) => {
  let h: CardsHarness;

  beforeAll(async () => {
    h = await startCardsApp(kind);
  });

  afterAll(async () => {
    await h?.close();
  });

  it('given a card at 4 px/mm in a photo wider than the fast decode, when graded, then 422 card_too_small with the outline and px/mm in the photo\'s pixels', async () => {
    const small = await renderSyntheticCard({ pxPerMm: 4, photo: { cardScale: 0.35, aspect: 16 / 9, noise: 3 } }, 5);
    const { width, height } = await sharp(small).metadata();
    expect(width).toBeGreaterThan(1344);
    const body = (await expectRefused(await h.browser().grade([['frontImage', jpeg(small)]]), 422, 'card_too_small', /4\.5/)) as { details?: unknown };
    const details = measurementRefusalDetailsSchema.extend({ side: z.literal('front') }).parse(body.details);
    expect(details.photo).toEqual({ width, height });
    expect(details.neededPxPerMm).toBe(4.5);
    expect(details.pxPerMm).toBeGreaterThan(3.7);
    expect(details.pxPerMm).toBeLessThan(4.3);
    expect(details.outline).toHaveLength(4);
    // The card (63 mm at 4 px/mm, about 252 px wide) sits in the middle of the frame.
    const xs = details.outline!.map((p) => p.x);
    expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThan(220);
    expect(Math.abs((Math.max(...xs) + Math.min(...xs)) / 2 - width! / 2)).toBeLessThan(20);
  });

  it('given a card cut off by the photo\'s edge, when graded, then 422 card_cut_off naming the cut sides', async () => {
    const cut = await renderSyntheticCard({ variant: 'cut-off', pxPerMm: 8, photo: { noise: 3 } }, 3);
    const body = (await expectRefused(await h.browser().grade([['frontImage', jpeg(cut)]]), 422, 'card_cut_off')) as { details?: unknown };
    const details = measurementRefusalDetailsSchema.parse(body.details);
    expect(details.cutSides.length).toBeGreaterThan(0);
    expect(details.outline).toHaveLength(4);
  });
});
