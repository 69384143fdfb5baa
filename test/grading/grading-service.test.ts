import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measurementRefusalDetailsSchema } from '../../src/contracts/measurement.ts';
import { gradedCardSchema } from '../../src/contracts/grading.ts';
import { blendSubgrades } from '../../src/domain/grading/index.ts';
import { createCpuPool } from '../../src/infra/cpu-pool/index.ts';
import { createOcrIdentifier } from '../../src/infra/identification/index.ts';
import { ImageMeasurementError, renderSyntheticCard } from '../../src/vision/index.ts';
import { HINTS } from '../../src/vision/quality.ts';
import { gradeCard } from '../../src/workers/grading/index.ts';
import { renderNamedCardPhoto } from '../identification/named-card.ts';

// The grading service end to end: photo bytes → decode → measure in the CPU pool → grade → identify → annotate.
// How well the vision layer measures is test/vision's business; here: the plumbing, determinism and refusals.

const cpuPool = createCpuPool({ size: 2 });
const maxPixels = 50_000_000;
let front: Uint8Array;
let back: Uint8Array;

beforeAll(async () => {
  [front, back] = await Promise.all([
    renderSyntheticCard({ borders: { leftMm: 3.6, rightMm: 2.4, topMm: 3, bottomMm: 3 }, photo: { noise: 2 } }, 21),
    renderSyntheticCard({ borders: { leftMm: 3, rightMm: 3, topMm: 3, bottomMm: 3 }, photo: { noise: 2 } }, 22),
  ]);
});
afterAll(() => cpuPool.close());

async function refusalOf(promise: Promise<unknown>): Promise<ImageMeasurementError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImageMeasurementError);
  return error as ImageMeasurementError;
}

describe('grading photos', () => {
  it('grades front and back in the CPU pool: each side measured as itself, the card 60/40 of the two', async () => {
    const graded = await gradeCard({ front, back }, { cpuPool, maxPixels });
    const { card } = graded;
    expect(gradedCardSchema.parse(card)).toEqual(card);
    expect(card.identification.source).toBe('none');
    expect(card.cardName).toBe('Unknown card');

    const frontCentering = card.measurements.front.centering;
    const backCentering = card.measurements.back!.centering;
    expect(frontCentering.measurable && backCentering.measurable).toBe(true);
    if (frontCentering.measurable) expect(Math.abs(frontCentering.horizontal.worstShare - 60)).toBeLessThan(1.5);
    if (backCentering.measurable) expect(Math.abs(backCentering.horizontal.worstShare - 50)).toBeLessThan(1.5);
    expect(card.measurements.front.side).toBe('front');
    // Decoded at 1344 px the card has 11.5 px/mm; the face is read at 10, so 0.2 mm is the least that can show.
    expect(card.measurements.front.quality).toMatchObject({ pxPerMm: 10, smallestDefectMm: 0.2 });
    expect(card.measurements.back!.side).toBe('back');
    expect(card.grades).toEqual(blendSubgrades(card.frontGrades!, card.backGrades!));

    for (const png of [graded.annotated.front, graded.annotated.back!]) {
      const info = await sharp(png).metadata();
      expect([info.format, info.width, info.height]).toEqual(['png', 630, 880]);
    }
  });

  it('same bytes, same JSON and same pictures, byte for byte, with or without the pool', async () => {
    const [pooled, again, inline] = await Promise.all([
      gradeCard({ front, back }, { cpuPool, maxPixels }),
      gradeCard({ front, back }, { cpuPool, maxPixels }),
      gradeCard({ front, back }, { maxPixels }),
    ]);
    const json = JSON.stringify(pooled.card);
    expect(JSON.stringify(again.card)).toBe(json);
    expect(JSON.stringify(inline.card)).toBe(json);
    expect(Buffer.from(again.annotated.front).equals(Buffer.from(pooled.annotated.front))).toBe(true);
    expect(Buffer.from(inline.annotated.back!).equals(Buffer.from(pooled.annotated.back!))).toBe(true);
  });

  it('refuses what it cannot measure with the error code, saying which photo', async () => {
    const blank = await renderSyntheticCard({ variant: 'blank' }, 23);
    // refused in the pool's thread: the code survives the trip back
    const blankBack = await refusalOf(gradeCard({ front, back: blank }, { cpuPool, maxPixels }));
    expect(blankBack.code).toBe('blank_image');
    expect(blankBack.message).toMatch(/^Back photo: /);
    expect(blankBack.details).toMatchObject({ side: 'back' });

    // refused while decoding, on this thread
    const text = await refusalOf(gradeCard({ front: new TextEncoder().encode('not a photo') }, { cpuPool, maxPixels }));
    expect(text.code).toBe('not_an_image');
    expect(text.message).not.toMatch(/photo: /);

    const tooLarge = await refusalOf(gradeCard({ front }, { cpuPool, maxPixels: 1_000_000 }));
    expect(tooLarge.code).toBe('image_too_large');
  });

  it('a card small in a large photo is measured from a larger decode; a photo that is small itself gets the hint', async () => {
    // The card across 55% of a 2,200-px photo: 13.75 px/mm at full size, 6.25 when decoded at 1,000 px.
    const spec = { pxPerMm: 13.75, borders: { leftMm: 3.6, rightMm: 2.4, topMm: 3, bottomMm: 3 }, photo: { cardScale: 0.55, noise: 2 } };
    const large = await renderSyntheticCard(spec, 24);
    const { card } = await gradeCard({ front: large }, { cpuPool, maxPixels, maxSide: 1000 });
    const { quality, image } = card.measurements.front;
    expect(Math.max(image.width, image.height)).toBeGreaterThan(1000);
    expect(quality.sourcePxPerMm).toBeGreaterThanOrEqual(10.9);
    expect(quality.hints).not.toContain(HINTS.lowResolution);

    const small = await renderSyntheticCard({ ...spec, pxPerMm: 8 }, 24);
    const smallCard = (await gradeCard({ front: small }, { cpuPool, maxPixels, maxSide: 1000 })).card.measurements.front;
    expect(smallCard.quality.sourcePxPerMm).toBeLessThan(8.1);
    expect(smallCard.quality.hints).toContain(HINTS.lowResolution);
  });

  it('a card too small for the fast decode is graded from the full photo; refusals are drawn in the photo\'s own pixels', async () => {
    // 9 px/mm in a 2,640-px-high photo: 3.4 px/mm at a 1,000-px decode, under the 4.5 grading needs.
    const photo = await renderSyntheticCard({ pxPerMm: 9, photo: { cardScale: 0.3, noise: 2 } }, 25);
    const { card } = await gradeCard({ front: photo }, { cpuPool, maxPixels, maxSide: 1000 });
    expect(card.measurements.front.quality.sourcePxPerMm).toBeGreaterThan(8.5);

    const cutOff = await renderSyntheticCard({ variant: 'cut-off', pxPerMm: 12, photo: { noise: 2 } }, 26);
    const { width, height } = await sharp(cutOff).metadata();
    const refused = await refusalOf(gradeCard({ front: cutOff }, { cpuPool, maxPixels, maxSide: 1000 }));
    expect(refused.code).toBe('card_cut_off');
    const details = measurementRefusalDetailsSchema.parse(refused.details);
    expect(details.photo).toEqual({ width, height });
    expect(details.cutSides.length).toBeGreaterThan(0);
  });

  it('identifies the card from its photo with OCR: name band and number read off the flattened card', async () => {
    const ocr = createOcrIdentifier();
    try {
      const photo = await renderNamedCardPhoto({ name: 'Charizard', number: '4/102', seed: 3 }, -4);
      const { card } = await gradeCard({ front: photo }, { cpuPool, identifier: ocr, maxPixels });
      expect(card).toMatchObject({ cardName: 'Charizard', cardNumber: '4/102', estimatedValue: 'N/A' });
      expect(card.identification.source).toBe('ocr');
      const again = await gradeCard({ front: photo }, { cpuPool, identifier: ocr, maxPixels });
      expect(JSON.stringify(again.card)).toBe(JSON.stringify(card));
    } finally {
      await ocr.close();
    }
  });
});
