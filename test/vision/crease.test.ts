import { describe, expect, it } from 'vitest';
import { gradeCard } from '../../src/domain/grading/index.ts';
import { measureSynthetic, noisyCard } from './synthetic-photos.ts';

// A crease is a fold: its two faces catch the light differently, a light line and a dark one beside it, running
// through whatever print lies under them (GRADING.md §2: it caps every grade at 4, on strong evidence only). A pair
// like that along the card's axis right beside its edge is the card's own cut (or its holder's wall) seen inside an
// outline found a few millimetres outside it (issue 30: a slab's well), never a fold.

const creases = (m: Awaited<ReturnType<typeof measureSynthetic>>) => m.defects.filter((d) => d.kind === 'crease');

describe('creases', () => {
  it.each([
    [12, 40, 30, 41],
    [8, 40, 30, 42],
    [12, 22, 60, 43],
  ])('given a fold drawn at %i px/mm, %i mm long at %i°, when measured, then it is one crease of its length and angle, and the grade is capped at 4 (seed %i)', async (pxPerMm, lengthMm, angleDeg, seed) => {
    const m = await measureSynthetic(noisyCard({ pxPerMm, defects: [{ kind: 'crease', x: 31, y: 50, lengthMm, angleDeg }] }), seed);
    const found = creases(m);
    expect(found).toHaveLength(1);
    expect(Math.abs(found[0]!.lengthMm! - lengthMm)).toBeLessThanOrEqual(0.15 * lengthMm);
    expect(Math.abs(found[0]!.angleDeg! - angleDeg)).toBeLessThanOrEqual(5);
    expect(gradeCard({ front: m }).overallGrade).toBeLessThanOrEqual(4);
  });

  it('given a light-and-dark pair across the whole face 4 mm above the bottom edge, when measured, then it is an edge seen inside the outline, not a crease', async () => {
    const m = await measureSynthetic(noisyCard({ defects: [{ kind: 'crease', x: 31.5, y: 84, lengthMm: 60, angleDeg: 0 }] }), 44);
    expect(creases(m)).toEqual([]);
  });

  it('given the same pair across the middle of the face, when measured, then it is a crease: a fold straight across the card', async () => {
    const m = await measureSynthetic(noisyCard({ defects: [{ kind: 'crease', x: 31.5, y: 44, lengthMm: 60, angleDeg: 0 }] }), 45);
    expect(creases(m)).toHaveLength(1);
  });

  it.each([
    [12, 30, 46],
    [8, 55, 47],
  ])('given the sharpened edge of a printed shape drawn at %i px/mm at %i° (a strand of hair, a highlight\'s rim), when measured, then it is print, not a crease (seed %i)', async (pxPerMm, angleDeg, seed) => {
    const m = await measureSynthetic(noisyCard({ pxPerMm, artStrokes: [{ x: 31, y: 48, lengthMm: 30, angleDeg }] }), seed);
    expect(creases(m)).toEqual([]);
  });

  it('given a fold drawn across such a printed edge, when measured, then the fold is still a crease', async () => {
    const m = await measureSynthetic(noisyCard({ artStrokes: [{ x: 31, y: 48, lengthMm: 30, angleDeg: 30 }], defects: [{ kind: 'crease', x: 31, y: 48, lengthMm: 40, angleDeg: 120 }] }), 41);
    expect(creases(m)).toHaveLength(1);
    expect(Math.abs(creases(m)[0]!.angleDeg! - 120)).toBeLessThanOrEqual(5);
  });
});
