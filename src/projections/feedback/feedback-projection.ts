import { feedbackStatusChangedSchema, feedbackSubmittedSchema } from '../../domain/feedback/index.ts';
import { imageUrl } from '../cards/image-urls.ts';
import { userIdOf } from '../cards/owner.ts';
import { rowProjection } from '../runner/row-projection.ts';
import { rowTable } from '../runner/row-store.ts';

const feedback = rowTable('feedback', ['id']);

// Inline: an operator listing feedback right after it was sent sees it, and a status set is read back at once.
export const feedbackProjection = rowProjection({
  name: 'feedback',
  handles: ['FeedbackSubmitted', 'FeedbackStatusChanged'],
  tables: [feedback],
  async handle(rows, event) {
    if (event.type === 'FeedbackSubmitted') {
      const data = feedbackSubmittedSchema.parse(event.data);
      await rows.insertIfAbsent(feedback, {
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
        });
    } else if (event.type === 'FeedbackStatusChanged') {
      const data = feedbackStatusChangedSchema.parse(event.data);
      await rows.update(feedback, { id: data.feedbackId }, { status: data.to, updated_at: data.changedAt });
    }
  },
});
