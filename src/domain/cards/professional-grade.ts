import type { CardGrade, GradingCompany, SlabLabel } from '../../contracts/grading.ts';
import type { EngineEstimate, EngineVersion } from '../../contracts/professional-grades.ts';

// What a professional grade may be (the scale is in the contracts, for the form too), and what the engine's estimate
// of it was. Pure.

export { gradeScale, isGradeOnScale } from '../../contracts/professional-grades.ts';

/** A slab photo verifies a report when its label reads the same company and grade. */
export const labelVerifies = (label: SlabLabel | null, company: GradingCompany, grade: number) => label !== null && label.company === company && label.grade === grade;

/**
 * The engine's estimate as the accuracy figures compare it: the PSA estimate where the engine could tell, else the
 * overall grade (grades from before the PSA estimate have none).
 */
export function engineEstimateOf(grade: Pick<CardGrade, 'psaEstimate' | 'overallGrade' | 'grades'>, engine: EngineVersion): EngineEstimate {
  const psa = grade.psaEstimate?.canTell ? grade.psaEstimate.grade : null;
  return {
    psaEstimate: psa,
    overallGrade: grade.overallGrade,
    grades: grade.grades,
    compared: psa ?? grade.overallGrade,
    comparedFrom: psa === null ? 'overallGrade' : 'psaEstimate',
    engine,
  };
}
