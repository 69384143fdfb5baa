import type { CardGrade, GradingCompany, SlabLabel } from '../../contracts/grading.ts';
import type { EngineEstimate, EngineVersion } from '../../contracts/professional-grades.ts';

// What a professional grade may be, and what the engine's estimate of it was. Pure.

/**
 * Whether a company gives this grade. All six grade 1 to 10; PSA gives half grades only from 1.5 to 8.5 (no 0.5,
 * no 9.5: its scale goes 8.5, 9, 10), the others (BGS, CGC, SGC, TAG, AGS) any half step, 9.5 included.
 */
export function isGradeOnScale(company: GradingCompany, grade: number): boolean {
  if (!Number.isFinite(grade) || grade < 1 || grade > 10 || !Number.isInteger(grade * 2)) return false;
  if (company === 'PSA' && !Number.isInteger(grade)) return grade >= 1.5 && grade <= 8.5;
  return true;
}

/** The grades a company gives, lowest first: what the form offers. */
export function gradeScale(company: GradingCompany): number[] {
  const steps = Array.from({ length: 19 }, (_, i) => 1 + i / 2);
  return steps.filter((grade) => isGradeOnScale(company, grade));
}

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
