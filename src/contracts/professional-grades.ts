import { z } from 'zod';
import { slabLabelSchema, subgradesSchema } from './grading.ts';
import type { GradingCompany } from './grading.ts';
import { gradingCompanySchema } from './portfolio.ts';
import { cleanText } from './text.ts';

// Professional results coming back (issue 33): the grade a card later got from a grading company, reported by its
// owner, beside what the engine estimated at the time; and the public accuracy figures built from those reports.

/** Which engine made a grade: the vision code's version and the PSA calibration's (src/workers/engine-version.ts). */
export const engineVersionSchema = z.object({ vision: z.string(), calibration: z.string() });
export type EngineVersion = z.infer<typeof engineVersionSchema>;

/** What grades written before engines were recorded carry. */
export const UNKNOWN_ENGINE: EngineVersion = { vision: 'unknown', calibration: 'unknown' };

/**
 * What the engine said of the card when the professional grade was reported, copied into the report so later regrades
 * change nothing about how that report is scored. `compared` is the grade the accuracy figures hold against the
 * professional one: the PSA estimate where the engine could tell, else the overall grade; `comparedFrom` says which.
 */
export const engineEstimateSchema = z.object({
  psaEstimate: z.number().nullable(),
  overallGrade: z.number(),
  grades: subgradesSchema,
  compared: z.number(),
  comparedFrom: z.enum(['psaEstimate', 'overallGrade']),
  engine: engineVersionSchema,
});
export type EngineEstimate = z.infer<typeof engineEstimateSchema>;

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

/** The fields of POST /api/card/{id}/professional-grade (multipart: these, and an optional slabPhoto file). */
export const professionalGradeFieldsSchema = z.object({
  company: gradingCompanySchema,
  grade: z.coerce.number({ message: 'The grade is a number from 1 to 10' }),
  cert: cleanText('line', z.string({ error: 'The certification number is required' }).trim().regex(/^[A-Za-z0-9-]{4,20}$/, 'A certification number is 4 to 20 letters, digits or dashes, as printed on the label')),
});
export type ProfessionalGradeFields = z.infer<typeof professionalGradeFieldsSchema>;

/** One report as the card's page shows it; the latest of a card's reports is the one that counts. */
export const professionalGradeReportSchema = z.object({
  reportId: z.string(),
  company: gradingCompanySchema,
  grade: z.number(),
  cert: z.string(),
  /** What the slab photo's label read; null without a photo or when no label was read off it. */
  slabLabel: slabLabelSchema.nullable(),
  /** True when a slab photo came with the report. */
  withPhoto: z.boolean(),
  /** The photo's label reads the same company and grade. */
  verified: z.boolean(),
  /** 'owner': reported from the card's page; 'order': the grading order came back graded. */
  source: z.enum(['owner', 'order']),
  estimate: engineEstimateSchema,
  reportedAt: z.string(),
});
export type ProfessionalGradeReport = z.infer<typeof professionalGradeReportSchema>;

export const professionalGradeHistorySchema = z.object({
  /** The latest report (it supersedes the earlier ones), or null before any. */
  current: professionalGradeReportSchema.nullable(),
  /** Every report, oldest first. */
  reports: z.array(professionalGradeReportSchema),
});
export type ProfessionalGradeHistory = z.infer<typeof professionalGradeHistorySchema>;

/** How far the engine's estimate was from the professional grade over a set of reports (weighted, see accuracySchema). */
export const accuracyFiguresSchema = z.object({
  /** Reports behind the figures, and the accounts that made them. */
  reports: z.number().int(),
  accounts: z.number().int(),
  /** The reports' total weight after the per-account cap: what the shares below are shares of. */
  weight: z.number(),
  /** How many of the estimates compared were the PSA estimate, and how many the overall grade. */
  comparedFrom: z.object({ psaEstimate: z.number().int(), overallGrade: z.number().int() }),
  /** Shares 0..1: |Δ| ≤ 0.5, ≤ 1, ≤ 2; null without reports. */
  exact: z.number().nullable(),
  withinOne: z.number().nullable(),
  withinTwo: z.number().nullable(),
  meanAbsDelta: z.number().nullable(),
  /** Mean of estimate − professional grade: positive when the engine grades too high. */
  meanDelta: z.number().nullable(),
  /** Spearman's ρ between estimate and professional grade; null when either side does not vary. */
  spearman: z.number().nullable(),
  /** Mean of each subgrade − professional grade (centering over the reports that measured it). */
  subgradeBias: z.object({ centering: z.number().nullable(), corners: z.number().nullable(), edges: z.number().nullable(), surface: z.number().nullable() }),
});
export type AccuracyFigures = z.infer<typeof accuracyFiguresSchema>;

export const accuracySplitSchema = z.object({ all: accuracyFiguresSchema, verified: accuracyFiguresSchema, unverified: accuracyFiguresSchema });
export type AccuracySplit = z.infer<typeof accuracySplitSchema>;

export const accuracySchema = z.object({
  /** The rule that keeps one account from swinging the figures, in words, and its number. */
  accountCap: z.number().int(),
  weighting: z.string(),
  overall: accuracySplitSchema,
  byEngine: z.array(z.object({ vision: z.string(), calibration: z.string() }).extend({ figures: accuracySplitSchema })),
  byCompany: z.array(z.object({ company: gradingCompanySchema, figures: accuracySplitSchema })),
});
export type Accuracy = z.infer<typeof accuracySchema>;

/** One grade of a card: the engine's when it was graded, or a later engine's from `npm run regrade`. */
export const gradeHistoryEntrySchema = z.object({
  kind: z.enum(['graded', 'regraded']),
  overallGrade: z.number(),
  grades: subgradesSchema,
  /** The engine's PSA estimate where it could tell; null otherwise (and on grades from before the estimate). */
  psaEstimate: z.number().nullable(),
  engine: engineVersionSchema,
  at: z.string(),
});
export type GradeHistoryEntry = z.infer<typeof gradeHistoryEntrySchema>;

/** GET /api/card/{id}/grade-history: every grade of the card oldest first (the first is the one it keeps), and its professional reports. */
export const gradeHistorySchema = z.object({
  grades: z.array(gradeHistoryEntrySchema),
  reports: z.array(professionalGradeReportSchema),
});
export type GradeHistory = z.infer<typeof gradeHistorySchema>;
