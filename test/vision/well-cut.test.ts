import { describe, expect, it } from 'vitest';
import type { Point } from '../../src/contracts/measurement.ts';
import { cardInDarkWell } from '../../src/vision/card-in-well.ts';
import { CARD_FORMATS } from '../../src/vision/card-formats.ts';
import { decodeImage, renderSyntheticCard } from '../../src/vision/index.ts';
import type { DecodedImage, SyntheticCardSpec, SyntheticSlab } from '../../src/vision/index.ts';
import { normaliseExposure } from '../../src/vision/exposure.ts';
import { findCard } from '../../src/vision/find-card.ts';
import { cutInWell } from '../../src/vision/well-cut.ts';
import { MAX_PIXELS } from './synthetic-photos.ts';

// The card in a slab's dark well (issue 30): an outline a few millimetres off the card (on the well's rim, or on the
// print inside the border) is moved to the card's own cut; an outline that is still the holder's finds the card as the
// light patch on the well's floor. The card's own edges are what findCard finds on the same scan (holder.test.ts
// checks those against the borders drawn).

const PSA_SLAB: SyntheticSlab = { layout: 'psa', look: 'scanned', company: 'PSA', gradeText: 'MINT', grade: '9', cert: '65200248', year: '2005 POKEMON JAPANESE', name: 'MEW EX - HOLO', number: '#003' };
const PX_PER_MM = 12;

function slab(borderColor: string, rotationDeg = 0): SyntheticCardSpec {
  return { pxPerMm: PX_PER_MM, borderColor, lettering: { name: 'Charizard' }, photo: { noise: 3, background: '#0c0c0e', rotationDeg, slab: PSA_SLAB } };
}

async function scanned(spec: SyntheticCardSpec, seed: number): Promise<DecodedImage> {
  return normaliseExposure(await decodeImage(await renderSyntheticCard(spec, seed), { maxPixels: MAX_PIXELS }));
}

/** The quad with every side moved `mm` outwards (inwards when negative), about its centre. */
function grown(quad: readonly Point[], mm: number): Point[] {
  const cx = quad.reduce((s, p) => s + p.x, 0) / 4;
  const cy = quad.reduce((s, p) => s + p.y, 0) / 4;
  const [tl, tr, , bl] = quad as [Point, Point, Point, Point];
  const halfWidth = Math.hypot(tr.x - tl.x, tr.y - tl.y) / 2;
  const halfHeight = Math.hypot(bl.x - tl.x, bl.y - tl.y) / 2;
  const d = mm * PX_PER_MM;
  return quad.map((p) => ({ x: cx + ((p.x - cx) * (halfWidth + d)) / halfWidth, y: cy + ((p.y - cy) * (halfHeight + d)) / halfHeight }));
}

/** The largest distance between corresponding corners, in millimetres. */
function worstCornerMm(a: readonly Point[], b: readonly Point[]): number {
  return Math.max(...a.map((p, k) => Math.hypot(p.x - b[k]!.x, p.y - b[k]!.y))) / PX_PER_MM;
}

describe('the cut of a card in a dark well', () => {
  it.each([
    [1.5, 0],
    [-1.5, 0],
    [2, 2],
  ])('given an outline %f mm off the card (turned %i°), when each side looks for the cut, then it lies on the card within 0.4 mm', async (offMm, rotationDeg) => {
    const image = await scanned(slab('#e8c33a', rotationDeg), 7);
    const card = findCard(image);
    expect(worstCornerMm(cutInWell(image, grown(card, offMm), CARD_FORMATS), card)).toBeLessThanOrEqual(0.4);
  });
});

describe('a card found as the light patch on a dark well floor', () => {
  it('given the holder\'s inner frame 5 mm round the card, when the floor inside is read, then the card is found within 1 mm and its cut within 0.4 mm', async () => {
    const image = await scanned(slab('#e8c33a'), 9);
    const card = findCard(image);
    const patch = cardInDarkWell(image, grown(card, 5), CARD_FORMATS);
    if (patch === null) throw new Error('no card found on the floor');
    expect(worstCornerMm(patch, card)).toBeLessThanOrEqual(1);
    expect(worstCornerMm(cutInWell(image, patch, CARD_FORMATS), card)).toBeLessThanOrEqual(0.4);
  });

  it('given an outline with no dark floor inside it (a raw card on a light table), when the floor is read, then nothing is found', async () => {
    const image = normaliseExposure(await decodeImage(await renderSyntheticCard({ pxPerMm: PX_PER_MM, borderColor: '#e8c33a', photo: { noise: 3, background: '#d8d4cc' } }, 10), { maxPixels: MAX_PIXELS }));
    expect(cardInDarkWell(image, grown(findCard(image), 5), CARD_FORMATS)).toBeNull();
  });

  it("given a raw card's own outline, when the floor is read inside it, then its art (darker than its border, but no dark insert) is not taken for the card", async () => {
    const image = normaliseExposure(await decodeImage(await renderSyntheticCard({ pxPerMm: PX_PER_MM, borderColor: '#e8c33a', lettering: { name: 'Charizard' }, photo: { noise: 3 } }, 41), { maxPixels: MAX_PIXELS }));
    expect(cardInDarkWell(image, findCard(image), CARD_FORMATS)).toBeNull();
  });
});
