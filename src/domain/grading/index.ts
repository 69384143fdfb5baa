// The grading engine's public face: measurements in, grades out (GRADING.md §2, SPEC.md §9). Pure.
export { gradeCard, describeGradedCard, gradeLabel, centeringVerdict, condition, blendSubgrades, labelledPrice } from './grade-card.ts';
export { gradeSide, overallOf } from './side-grades.ts';
export { centeringCeilings } from './ceilings.ts';
export { bgsOverall } from './bgs-overall.ts';
export { normaliseRarity } from './rarity.ts';
export { roundGrade } from './tables.ts';
export { parseSlabLabel } from './slab-label.ts';
