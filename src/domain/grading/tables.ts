// The tables of GRADING.md §2, point for point. A measurement between two points grades by linear
// interpolation; outside the table it takes the nearest end's grade.

/** [measurement, grade] pairs, measurements ascending. */
export type GradeTable = readonly (readonly [number, number])[];

export const FRONT_CENTERING: GradeTable = [
  [50, 10], [51, 10], [55, 9.5], [60, 9], [65, 8.5], [70, 8], [75, 7.5], [80, 7], [85, 6.5], [90, 6], [95, 4], [100, 1],
];

export const BACK_CENTERING: GradeTable = [
  [55, 10], [60, 9.5], [65, 9], [75, 8.5], [85, 8], [90, 7.5], [95, 6], [100, 4],
];

/** Worst corner's defect D = max(fray, whitened length), mm. */
export const CORNER_DEFECT: GradeTable = [
  [0.1, 10], [0.25, 9.5], [0.4, 9], [0.6, 8.5], [1.0, 8], [1.5, 7], [2.0, 6], [3.0, 5], [4.0, 3],
];

/** Total whitened length along one edge, mm. */
export const EDGE_WHITENING: GradeTable = [
  [0, 10], [1, 9.5], [3, 9], [6, 8.5], [12, 8], [25, 7], [50, 6], [100, 5],
];

/** Deepest nick on one edge, mm. */
export const EDGE_NICK_DEPTH: GradeTable = [
  [0.1, 10], [0.2, 9], [0.4, 8], [0.8, 7], [1.5, 6], [3, 4],
];

/** Total scratch length on the face, mm. */
export const SURFACE_SCRATCH_LENGTH: GradeTable = [
  [0, 10], [2, 9.5], [5, 9], [10, 8.5], [20, 8], [40, 7], [80, 6], [160, 4],
];

/** Number of spots on the face. */
export const SURFACE_SPOTS: GradeTable = [
  [0, 10], [1, 9.5], [3, 9], [6, 8.5], [10, 8], [20, 7],
];

export function interpolate(table: GradeTable, value: number): number {
  const first = table[0]!;
  const last = table[table.length - 1]!;
  if (Number.isNaN(value)) throw new Error('cannot grade a measurement that is not a number');
  if (value <= first[0]) return first[1];
  if (value >= last[0]) return last[1];
  for (let i = 1; i < table.length; i++) {
    const [x1, y1] = table[i]!;
    if (value <= x1) {
      const [x0, y0] = table[i - 1]!;
      return y0 + ((value - x0) / (x1 - x0)) * (y1 - y0);
    }
  }
  return last[1];
}

/**
 * Half-up rounding to one decimal, the way grades are shown (SPEC.md §9). The inner rounding drops
 * binary noise first, so 0.15 × 9.5 + … lands on the decimal a person computing by hand gets.
 */
export function roundGrade(value: number): number {
  return Math.round(Number((value * 10).toFixed(6))) / 10;
}
