export { gradeCard, MEASURE_MAX_SIDE } from './grade-card.ts';
export type { GradeCardDeps, GradedPhotos } from './grade-card.ts';
