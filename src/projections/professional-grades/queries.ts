import type { Kysely } from 'kysely';
import type { GradingCompany } from '../../contracts/grading.ts';
import type { ProfessionalGradeReport } from '../../contracts/professional-grades.ts';
import { professionalGradeReportedSchema } from '../../domain/cards/index.ts';
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

/** A card's reports, oldest first, from its stream: the log keeps every one, the latest counts. */
export function professionalGradeReports(events: readonly RecordedEvent[]): ProfessionalGradeReport[] {
  // Reports before a deletion went with the card (as in the read model): a card graded again starts afresh.
  const lastDeletion = events.findLastIndex((e) => e.type === 'CardDeleted');
  return events
    .slice(lastDeletion + 1)
    .filter((e) => e.type === 'ProfessionalGradeReported')
    .map((e) => {
      const { reportId, company, grade, cert, slabPhoto, slabLabel, verified, source, estimate, reportedAt } = professionalGradeReportedSchema.parse(e.data);
      return { reportId, company, grade, cert, slabLabel, withPhoto: slabPhoto !== null, verified, source, estimate, reportedAt };
    });
}
