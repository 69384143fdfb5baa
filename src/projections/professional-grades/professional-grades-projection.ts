import { cardDeletedSchema, professionalGradeReportedSchema } from '../../domain/cards/index.ts';
import { userIdOf } from '../cards/owner.ts';
import { rowProjection } from '../runner/row-projection.ts';
import { rowTable } from '../runner/row-store.ts';

const professionalGrades = rowTable('professional_grades', ['card_id']);

// Inline: the card's page shows the grade just reported, and the owner's own figures move with it. The latest report
// of a card replaces its row (a correction supersedes); a deleted card's report leaves the figures with it.
export const professionalGradesProjection = rowProjection({
  name: 'professional-grades',
  handles: ['ProfessionalGradeReported', 'CardDeleted'],
  tables: [professionalGrades],
  async handle(rows, event) {
    if (event.type === 'CardDeleted') {
      await rows.delete(professionalGrades, { card_id: cardDeletedSchema.parse(event.data).cardId });
      return;
    }
    const data = professionalGradeReportedSchema.parse(event.data);
    const userId = userIdOf(data.reportedBy);
    if (userId === null) return; // only accounts report (the decider refuses guests)
    const before = await rows.get(professionalGrades, { card_id: data.cardId });
    const { estimate } = data;
    rows.put(professionalGrades, {
      card_id: data.cardId,
      user_id: userId,
      report_id: data.reportId,
      company: data.company,
      grade: data.grade,
      cert: data.cert,
      verified: data.verified,
      source: data.source,
      compared: estimate.compared,
      compared_from: estimate.comparedFrom,
      psa_estimate: estimate.psaEstimate,
      overall_grade: estimate.overallGrade,
      centering: estimate.grades.centering,
      corners: estimate.grades.corners,
      edges: estimate.grades.edges,
      surface: estimate.grades.surface,
      engine_vision: estimate.engine.vision,
      engine_calibration: estimate.engine.calibration,
      report_count: (before?.report_count ?? 0) + 1,
      reported_at: data.reportedAt,
    });
  },
});
