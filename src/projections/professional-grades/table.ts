import type { ColumnType } from 'kysely';

// The professional grades read model (issue 33): the latest report of each card (it supersedes the earlier ones, which
// the card's stream keeps), with the engine's estimate at the time. Written only by its projection; the accuracy
// figures are worked out from these rows.
export interface ProfessionalGradesTable {
  card_id: string;
  /** The account that reported it: the accuracy figures cap what one account weighs. */
  user_id: string;
  report_id: string;
  company: string;
  grade: number;
  cert: string;
  verified: boolean;
  source: string;
  /** The grade the figures hold against the professional one, and which of the engine's grades it is. */
  compared: number;
  compared_from: string;
  psa_estimate: number | null;
  overall_grade: number;
  centering: number | null;
  corners: number;
  edges: number;
  surface: number;
  engine_vision: string;
  engine_calibration: string;
  /** How many reports the card has had (the latest counts). */
  report_count: number;
  reported_at: ColumnType<Date, Date | string, Date | string>;
}

export interface ProfessionalGradeTables {
  professional_grades: ProfessionalGradesTable;
}
