import type { Kysely, Selectable } from 'kysely';
import type { FeedbackEntry, FeedbackStatus } from '../../contracts/feedback.ts';
import type { Tables } from '../../infra/database/schema.ts';
import type { FeedbackTable } from './table.ts';

// Reads of the feedback read model, for operators (`npm run feedback`).

function entryOf(row: Selectable<FeedbackTable>): FeedbackEntry {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    email: row.email,
    feedbackText: row.feedback_text,
    imageUrl: row.image_url,
    category: row.category,
    status: row.status,
    createdAt: row.created_at.toISOString(),
  };
}

/** Newest first; only those with `status` when given. */
export async function listFeedback(db: Kysely<Tables>, options: { status?: FeedbackStatus; limit?: number } = {}): Promise<FeedbackEntry[]> {
  let query = db.selectFrom('feedback').selectAll();
  if (options.status) query = query.where('status', '=', options.status);
  const rows = await query.orderBy('created_at', 'desc').orderBy('id').limit(options.limit ?? 1000).execute();
  return rows.map(entryOf);
}

export async function findFeedback(db: Kysely<Tables>, id: string): Promise<FeedbackEntry | undefined> {
  const row = await db.selectFrom('feedback').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? entryOf(row) : undefined;
}

/** Who sent feedback from this email (as typed, any case): each sender once, a guest session or an account. */
export async function feedbackSendersByEmail(db: Kysely<Tables>, email: string): Promise<{ owner: string; feedback: number }[]> {
  const rows = await db
    .selectFrom('feedback')
    .select((eb) => ['owner', eb.fn.countAll<number>().as('feedback')])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
    .groupBy('owner')
    .orderBy('owner')
    .execute();
  return rows.map((row) => ({ owner: row.owner, feedback: Number(row.feedback) }));
}
