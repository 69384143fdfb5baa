import { feedbackStatusChangedSchema, feedbackSubmittedSchema } from '../../domain/feedback/index.ts';
import type { InlineProjection } from '../../infra/event-store/types.ts';
import { imageUrl } from '../cards/image-urls.ts';
import { userIdOf } from '../cards/owner.ts';

// Inline: an operator listing feedback right after it was sent sees it, and a status set is read back at once.
export const feedbackProjection: InlineProjection = {
  name: 'feedback',
  handles: ['FeedbackSubmitted', 'FeedbackStatusChanged'],
  tables: ['feedback'],
  async apply(trx, events) {
    for (const event of events) {
      if (event.type === 'FeedbackSubmitted') {
        const data = feedbackSubmittedSchema.parse(event.data);
        await trx
          .insertInto('feedback')
          .values({
            id: data.feedbackId,
            user_id: userIdOf(data.owner),
            owner: data.owner,
            name: data.name,
            email: data.email,
            feedback_text: data.feedbackText,
            image_url: data.image ? imageUrl(data.image.hash) : null,
            category: data.category,
            status: 'new',
            created_at: data.submittedAt,
            updated_at: data.submittedAt,
          })
          .onConflict((c) => c.column('id').doNothing())
          .execute();
      } else if (event.type === 'FeedbackStatusChanged') {
        const data = feedbackStatusChangedSchema.parse(event.data);
        await trx.updateTable('feedback').set({ status: data.to, updated_at: data.changedAt }).where('id', '=', data.feedbackId).execute();
      }
    }
  },
};
