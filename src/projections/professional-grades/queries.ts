import type { Kysely } from 'kysely';
import type { GradingCompany } from '../../contracts/grading.ts';
import type { GradeHistoryEntry, ProfessionalGradeReport } from '../../contracts/professional-grades.ts';
import { cardGradedSchema, cardRegradedSchema, professionalGradeReportedSchema } from '../../domain/cards/index.ts';
import type { ScoredReport } from '../../domain/grading/accuracy.ts';
import type { Tables } from '../../infra/database/schema.ts';
import type { RecordedEvent } from '../../infra/event-store/types.ts';

/** Every card's latest report as the accuracy figures read it; one account's only with `userId`. */
export async function scoredReports(db: Kysely<Tables>, userId?: string): Promise<ScoredReport[]> {
  let query = db.selectFrom('professional_grades').selectAll().orderBy('card_id');
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  const rows = await query.execute();
  return rows.map((row) => ({
    userId: row.user_id,
    company: row.company as GradingCompany,
    verified: row.verified,
    grade: row.grade,
    compared: row.compared,
    comparedFrom: row.compared_from === 'psaEstimate' ? 'psaEstimate' : 'overallGrade',
    grades: { centering: row.centering, corners: row.corners, edges: row.edges, surface: row.surface },
    engine: { vision: row.engine_vision, calibration: row.engine_calibration },
  }));
}

/** What of a card's stream is the card now: a card deleted and graded again starts afresh (as in the read models). */
const sinceLastDeletion = (events: readonly RecordedEvent[]) => events.slice(events.findLastIndex((e) => e.type === 'CardDeleted') + 1);

/** A card's reports, oldest first, from its stream: the log keeps every one, the latest counts. */
export function professionalGradeReports(events: readonly RecordedEvent[]): ProfessionalGradeReport[] {
  return sinceLastDeletion(events)
    .filter((e) => e.type === 'ProfessionalGradeReported')
    .map((e) => {
      const { reportId, company, grade, cert, slabPhoto, slabLabel, verified, source, estimate, reportedAt } = professionalGradeReportedSchema.parse(e.data);
      return { reportId, company, grade, cert, slabLabel, withPhoto: slabPhoto !== null, verified, source, estimate, reportedAt };
    });
}

/** A card's grades, oldest first, from its stream: its grading, then each regrade by a later engine. */
export function gradeHistory(events: readonly RecordedEvent[]): GradeHistoryEntry[] {
  const entries: GradeHistoryEntry[] = [];
  for (const event of sinceLastDeletion(events)) {
    if (event.type === 'CardGraded') {
      const { result, engine, gradedAt } = cardGradedSchema.parse(event.data);
      entries.push({ kind: 'graded', overallGrade: result.overallGrade, grades: result.grades, psaEstimate: result.psaEstimate?.canTell ? result.psaEstimate.grade : null, engine, at: gradedAt });
    } else if (event.type === 'CardRegraded') {
      const { grade, engine, regradedAt } = cardRegradedSchema.parse(event.data);
      entries.push({ kind: 'regraded', overallGrade: grade.overallGrade, grades: grade.grades, psaEstimate: grade.psaEstimate?.canTell ? grade.psaEstimate.grade : null, engine, at: regradedAt });
    }
  }
  return entries;
}
