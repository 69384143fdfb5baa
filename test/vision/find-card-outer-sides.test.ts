import { describe, expect, it } from 'vitest';
import { CARD_HEIGHT_MM, CARD_WIDTH_MM } from '../../src/contracts/measurement.ts';
import type { SideMeasurement } from '../../src/contracts/measurement.ts';
import type { SyntheticCardSpec } from '../../src/vision/index.ts';
import { cardQuad } from '../../src/vision/synthetic/render.ts';
import { measureSynthetic } from './synthetic-photos.ts';

// A card's side is where its border meets the background. On a silver or pale border against notebook paper the
// card's edge is a weak line beside a strong ruling, and the line taken for a side was the art's frame 3 mm inside
// the card (a quad one border short is still card-shaped): the card's outline was read on the art, the border on
// that side was not measured, and corners could read as frayed. Each drawn card below was found short on one to three
// sides before the change.

const SILVER = '#b8bcc2';
/** A One Piece card's pale silver-white border, a little greyer than notebook paper. */
const PALE = '#dcdcd6';

/** Where the generator put the card's corners (pixel centres), clockwise from the top-left. */
function drawnQuad(spec: SyntheticCardSpec): Array<{ x: number; y: number }> {
  const pxPerMm = spec.pxPerMm ?? 20;
  const photo = spec.photo ?? {};
  const height = Math.round((CARD_HEIGHT_MM * pxPerMm) / (photo.cardScale ?? 0.75));
  const width = Math.round(height * (photo.aspect ?? 0.8));
  return cardQuad(CARD_WIDTH_MM * pxPerMm, CARD_HEIGHT_MM * pxPerMm, width / 2, height / 2, photo.rotationDeg ?? 0, 0).map((p) => ({ x: p.x - 0.5, y: p.y - 0.5 }));
}

/** The largest distance, in mm, between a found corner and the drawn one. */
function cornerErrorMm(m: SideMeasurement, spec: SyntheticCardSpec): number {
  const truth = drawnQuad(spec);
  return Math.max(...m.quad.map((p, i) => Math.hypot(p.x - truth[i]!.x, p.y - truth[i]!.y))) / (spec.pxPerMm ?? 20);
}

function expectCardFound(m: SideMeasurement, spec: SyntheticCardSpec): void {
  expect(cornerErrorMm(m, spec)).toBeLessThanOrEqual(0.15);
  expect(m.cornerStyle).toBe('rounded');
  expect(m.defects.filter((d) => d.kind === 'corner-fray')).toEqual([]);
  if (!m.centering.measurable) throw new Error(`centering not measured: ${m.centering.reason}`);
  for (const border of [m.centering.leftMm, m.centering.rightMm, m.centering.topMm, m.centering.bottomMm]) expect(Math.abs(border - 3)).toBeLessThanOrEqual(0.2);
}

describe('a side is where the border meets the background, not a line inside the card', () => {
  it.each([
    [13.4, 3, 1],
    [13.4, -1, 4],
    [10, 2, 6],
    [8, -1, 3],
  ])('a silver border on lined paper at %s px/mm, turned %s°: the card is found to its edges (seed %s)', async (pxPerMm, rotationDeg, seed) => {
    const spec: SyntheticCardSpec = { pxPerMm, borderColor: SILVER, photo: { surface: 'lined-paper', noise: 4, rotationDeg } };
    expectCardFound(await measureSynthetic(spec, seed), spec);
  });

  it.each([
    [8, 1, 2],
    [10, -2, 3],
    [13.4, -1, 3],
  ])('a pale border on lined paper at %s px/mm, turned %s°: the card is found to its edges (seed %s)', async (pxPerMm, rotationDeg, seed) => {
    const spec: SyntheticCardSpec = { pxPerMm, borderColor: PALE, photo: { surface: 'lined-paper', noise: 4, rotationDeg } };
    expectCardFound(await measureSynthetic(spec, seed), spec);
  });

  it('a pale border on near-white paper at 8 px/mm, its lower edge a step of some 12 levels: the card is found to its edges', async () => {
    const spec: SyntheticCardSpec = { pxPerMm: 8, borderColor: PALE, photo: { background: '#f2f2ee', noise: 4 } };
    expectCardFound(await measureSynthetic(spec, 5), spec);
  });
});
