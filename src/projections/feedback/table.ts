import type { ColumnType } from 'kysely';
import type { FeedbackCategory, FeedbackStatus } from '../../contracts/feedback.ts';

// The feedback read model (SPEC.md §3 feedback). Written only by the feedback projection.
export interface FeedbackTable {
  /** The feedback's id (uuid), also its stream's. */
  id: string;
  /** SPEC.md's userId: null when a guest sent it. */
  user_id: string | null;
  /** `user:<id>` or `guest:<id>`. */
  owner: string;
  name: string | null;
  email: string | null;
  feedback_text: string;
  image_url: string | null;
  category: FeedbackCategory;
  status: FeedbackStatus;
  created_at: ColumnType<Date, Date | string, Date | string>;
  updated_at: ColumnType<Date, Date | string, Date | string>;
}

export interface FeedbackTables {
  feedback: FeedbackTable;
}
