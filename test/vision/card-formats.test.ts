import { describe, expect, it } from 'vitest';
import type { CardFormatId, SideMeasurement } from '../../src/contracts/measurement.ts';
import { gradeCard } from '../../src/domain/grading/index.ts';
import { ASPECT_TOLERANCE, CARD_FORMATS, FORMAT_TIE, STANDARD_FORMAT, formatForAspect } from '../../src/vision/card-formats.ts';
import type { SyntheticCardSpec, SyntheticSlab } from '../../src/vision/index.ts';
import { measureSynthetic, noisyCard } from './synthetic-photos.ts';

// Issue 30, item 3: cards other than 63 × 88 mm. Each format is drawn at its own size, on a table and in a slab, and
// must be graded (not refused as not card-shaped), reported as its format, and measured in its own millimetres.

const format = (id: CardFormatId) => CARD_FORMATS.find((f) => f.id === id)!;
const borders = { leftMm: 3.5, rightMm: 2.5, topMm: 4, bottomMm: 3 };
const psaSlab: SyntheticSlab = { layout: 'psa', company: 'PSA', gradeText: 'EX-MT', grade: '6', cert: '81234567', year: '1951 BOWMAN', name: 'TEST PLAYER', number: '#253' };
const cornersOf = ['topLeft', 'topRight', 'bottomRight', 'bottomLeft'] as const;
/**
 * Vintage cards print on white or cream stock, their borders that colour. (A dark border round lighter art, in a clear
 * slab under its label, reads to holder.ts as a card lying in a dark well: the card inside a slab is issue 30's item 1.)
 */
const CREAM = '#f1ede0';
/**
 * The 1948 Bowman and the 1933 Goudey are the same shape within 0.001 of aspect: a photo cannot tell them apart. A
 * 1952 Topps (0.700) is within FORMAT_TIE of 63 × 88 mm (0.716): a photo of one is taken for the common card.
 */
const SAME_SHAPE: Partial<Record<CardFormatId, CardFormatId[]>> = {
  'bowman-1948': ['bowman-1948', 'goudey-1933'],
  'goudey-1933': ['bowman-1948', 'goudey-1933'],
  'topps-1952': ['topps-1952', 'standard'],
};
const alikeOf = (id: CardFormatId) => SAME_SHAPE[id] ?? [id];

function bordersOf(m: SideMeasurement) {
  if (!m.centering.measurable) throw new Error(`centering not measurable: ${m.centering.reason}`);
  return { leftMm: m.centering.leftMm, rightMm: m.centering.rightMm, topMm: m.centering.topMm, bottomMm: m.centering.bottomMm };
}

/** Each border within ±0.15 mm of the drawn one: a tenth of a millimetre as centering.test.ts asks, and the flattening's scale. */
function expectBordersNear(m: SideMeasurement, drawn: typeof borders, scale = 1) {
  const read = bordersOf(m);
  for (const side of ['leftMm', 'rightMm', 'topMm', 'bottomMm'] as const) expect(Math.abs(read[side] - drawn[side] * scale), side).toBeLessThanOrEqual(0.15);
}

describe('card formats by the outline\'s aspect (card-formats.ts)', () => {
  it('takes each format\'s own aspect, either way up, as that format (but for those a photo cannot tell apart)', () => {
    for (const f of CARD_FORMATS) {
      const found = formatForAspect(f.aspect)!;
      expect(alikeOf(f.id)).toContain(found.id);
      expect(formatForAspect(1 / f.aspect)!.id).toBe(found.id);
    }
  });

  it('prefers 63 × 88 mm when it fits within the tie of the nearest, and refuses shapes no card has', () => {
    const small = format('japanese-small');
    // Nearer the Japanese size (0.686) or the 1952 Topps (0.700), but within FORMAT_TIE of 63 × 88: a 63 × 88 card
    // photographed at a slant, or read by its holder's well.
    expect(formatForAspect(format('topps-1952').aspect)).toBe(STANDARD_FORMAT);
    expect(formatForAspect(small.aspect + 0.006)).toBe(STANDARD_FORMAT);
    expect(formatForAspect(STANDARD_FORMAT.aspect - FORMAT_TIE / 2)).toBe(STANDARD_FORMAT);
    expect(formatForAspect(small.aspect)!.id).toBe('japanese-small');
    expect(formatForAspect(format('bowman-1951').aspect + 0.01)!.id).toBe('bowman-1951');
    expect(formatForAspect(1)).toBeNull();
    expect(formatForAspect(format('t206').aspect - ASPECT_TOLERANCE - 0.01)).toBeNull();
    expect(formatForAspect(0.77)).toBeNull();
  });
});

describe('vintage and small formats, drawn and photographed', () => {
  it.each(CARD_FORMATS.map((f) => [f.id] as const))('a %s card on a table is graded as its format, its borders right in its own mm', async (id) => {
    const cut: Partial<SyntheticCardSpec> = format(id).dieCutRadiiMm.includes(0) ? { cornerRadiusMm: 0 } : {};
    const m = await measureSynthetic(noisyCard({ format: id, borders, ...cut, photo: { rotationDeg: 4 } }), 31);
    const found = format(m.cardFormat!.id);
    // Of two formats of the same shape the nearer is taken, and the borders are then in that one's millimetres.
    expect(alikeOf(id)).toContain(found.id);
    expect(m.cardFormat).toEqual({ id: found.id, name: found.name, widthMm: found.widthMm, heightMm: found.heightMm });
    expectBordersNear(m, borders, found.widthMm / format(id).widthMm);
    // A clean card of any format: clean corners and edges.
    for (const corner of m.corners) expect(corner.frayMm).toBeLessThan(0.15);
    expect(m.defects.filter((d) => d.kind === 'corner-fray' || d.kind === 'edge-nick')).toEqual([]);
  });

  it.each([['goudey-1933'], ['bowman-1951'], ['t206'], ['topps-1952']] as const)('a %s card in a PSA slab is measured inside it as its format (the holder is not the card)', async (id) => {
    const m = await measureSynthetic(noisyCard({ format: id, borders, borderColor: CREAM, cornerRadiusMm: 0, photo: { slab: psaSlab } }), 32);
    expect(alikeOf(id)).toContain(m.cardFormat?.id);
    expectBordersNear(m, borders, format(m.cardFormat!.id).widthMm / format(id).widthMm);
    for (const corner of m.corners) expect(corner.frayMm).toBeLessThan(0.15);
  });
});

describe('corners against the format\'s die cut', () => {
  // The same four 3 mm arcs: a Pokémon card's die cut on a 63 × 88 mm card, four worn corners on a square-cut one.
  const rounded = { borders, cornerRadiusMm: 3 } as const;

  it('four rounded corners on a 63 × 88 mm card are its die cut: not worn', async () => {
    const m = await measureSynthetic(noisyCard(rounded), 33);
    expect(m.cardFormat?.id).toBe('standard');
    expect(m.cornerStyle).toBe('rounded');
    for (const corner of m.corners) expect(corner.frayMm).toBeLessThan(0.15);
    expect(gradeCard({ front: m }).grades.corners).toBe(10);
  });

  it.each([
    ['1951 Bowman on a table', 'bowman-1951', {}],
    ['1933 Goudey in a slab', 'goudey-1933', { slab: psaSlab }],
  ] as const)('four equally rounded corners on a square-cut %s are all worn', async (_, id, photo) => {
    const m = await measureSynthetic(noisyCard({ ...rounded, borderColor: CREAM, format: id, photo }), 34);
    expect(alikeOf(id)).toContain(m.cardFormat?.id);
    expect(m.cornerStyle).toBe('square');
    // A 3 mm arc lies (√2 − 1)·3 ≈ 1.24 mm inside a square corner along its diagonal, and never more than 3 mm from its sides.
    for (const corner of m.corners) {
      expect(corner.frayMm).toBeGreaterThanOrEqual((Math.SQRT2 - 1) * 3 - 0.1);
      expect(corner.frayMm).toBeLessThanOrEqual(3);
    }
    expect(m.defects.filter((d) => d.kind === 'corner-fray').map((d) => d.location).sort()).toEqual([...cornersOf].sort());
    expect(gradeCard({ front: m }).grades.corners).toBeLessThan(8);
  });
});
