import type { Subgrades } from '../../contracts/grading.ts';

// Beckett does not average its subgrades: the lowest weighs most, and the overall never
// exceeds the lowest by more than one grade. The rule used here:
//   subgrades to Beckett's half points, then
//   overall = min(lowest + 1, half-point rounding of (lowest + mean of the others) / 2)
// reproduces Beckett's own examples (9.5/9.5/9/8 → 8.5, 9.5/9.5/8.5/9 → 9, 10/6/10/10 → 7) and its
// thresholds (three 9.5s and a 9 still make a 9.5 Gem Mint; three 10s and a 9.5 a 10 Pristine).
// It never falls when a subgrade rises.

function toHalfPoint(value: number): number {
  return Math.round(Number((value * 2).toFixed(6))) / 2;
}

export function bgsOverall(grades: Subgrades): number {
  const subgrades = [grades.centering, grades.corners, grades.edges, grades.surface]
    .filter((g): g is number => g !== null)
    .map(toHalfPoint)
    .sort((a, b) => a - b);
  const [lowest = 0, ...others] = subgrades;
  const meanOfOthers = others.reduce((sum, g) => sum + g, 0) / others.length;
  return Math.min(lowest + 1, toHalfPoint((lowest + meanOfOthers) / 2));
}
