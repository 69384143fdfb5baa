import { describe, expect, it } from 'vitest';
import {
  BACK_CENTERING,
  CORNER_DEFECT,
  EDGE_NICK_DEPTH,
  EDGE_WHITENING,
  FRONT_CENTERING,
  interpolate,
  roundGrade,
  SURFACE_SCRATCH_LENGTH,
  SURFACE_SPOTS,
} from '../../src/domain/grading/tables.ts';
import type { GradeTable } from '../../src/domain/grading/tables.ts';

// GRADING.md §2, copied here by hand from the document, so a typo in the engine's tables fails a test.
const documented: Record<string, [number[], number[]]> = {
  'front centering': [[50, 51, 55, 60, 65, 70, 75, 80, 85, 90, 95, 100], [10, 10, 9.5, 9, 8.5, 8, 7.5, 7, 6.5, 6, 4, 1]],
  'back centering': [[55, 60, 65, 75, 85, 90, 95, 100], [10, 9.5, 9, 8.5, 8, 7.5, 6, 4]],
  'corner defect': [[0.1, 0.25, 0.4, 0.6, 1.0, 1.5, 2.0, 3.0, 4.0], [10, 9.5, 9, 8.5, 8, 7, 6, 5, 3]],
  'edge whitening': [[0, 1, 3, 6, 12, 25, 50, 100], [10, 9.5, 9, 8.5, 8, 7, 6, 5]],
  'edge nick depth': [[0.1, 0.2, 0.4, 0.8, 1.5, 3], [10, 9, 8, 7, 6, 4]],
  'scratch length': [[0, 2, 5, 10, 20, 40, 80, 160], [10, 9.5, 9, 8.5, 8, 7, 6, 4]],
  spots: [[0, 1, 3, 6, 10, 20], [10, 9.5, 9, 8.5, 8, 7]],
};
const engine: Record<string, GradeTable> = {
  'front centering': FRONT_CENTERING,
  'back centering': BACK_CENTERING,
  'corner defect': CORNER_DEFECT,
  'edge whitening': EDGE_WHITENING,
  'edge nick depth': EDGE_NICK_DEPTH,
  'scratch length': SURFACE_SCRATCH_LENGTH,
  spots: SURFACE_SPOTS,
};

describe('the tables of GRADING.md §2', () => {
  for (const [name, [xs, grades]] of Object.entries(documented)) {
    const table = engine[name]!;

    it(`${name}: every documented point grades exactly`, () => {
      expect(table.map(([x]) => x)).toEqual(xs);
      xs.forEach((x, i) => expect(interpolate(table, x)).toBe(grades[i]));
    });

    it(`${name}: halfway between two points grades halfway, and beyond the ends takes the end's grade`, () => {
      for (let i = 1; i < xs.length; i++) {
        const middle = (xs[i - 1]! + xs[i]!) / 2;
        expect(interpolate(table, middle)).toBeCloseTo((grades[i - 1]! + grades[i]!) / 2, 10);
      }
      expect(interpolate(table, xs[0]! - 1)).toBe(grades[0]);
      expect(interpolate(table, xs[xs.length - 1]! * 10)).toBe(grades[grades.length - 1]);
    });

    it(`${name}: a larger measurement never grades higher`, () => {
      const last = xs[xs.length - 1]!;
      let previous = Infinity;
      for (let x = xs[0]! - 1; x <= last * 1.2; x += last / 997) {
        const grade = interpolate(table, x);
        expect(grade).toBeLessThanOrEqual(previous);
        previous = grade;
      }
    });
  }

  it('refuses to grade a measurement that is not a number', () => {
    expect(() => interpolate(CORNER_DEFECT, Number.NaN)).toThrow();
  });
});

describe('one-decimal rounding', () => {
  it('rounds half up, free of binary noise', () => {
    expect(roundGrade(9.25)).toBe(9.3);
    expect(roundGrade(9.24999)).toBe(9.2);
    expect(roundGrade(8.35)).toBe(8.4); // 8.35 is 8.3499999… in binary
    expect(roundGrade(0.15 * 9.5 + 0.35 * 9 + 0.15 * 8.5 + 0.35 * 9)).toBe(9);
    expect(roundGrade(10)).toBe(10);
  });
});
