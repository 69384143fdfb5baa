import { accountErasedSchema, guestErasedSchema } from '../../domain/accounts/events.ts';
import { feedbackStatusChangedSchema, feedbackSubmittedSchema } from '../../domain/feedback/index.ts';
import { erasePersonalFields } from '../../domain/personal-data.ts';
import { imageUrl } from '../cards/image-urls.ts';
import { userIdOf } from '../cards/owner.ts';
import { rowProjection } from '../runner/row-projection.ts';
import { rowTable } from '../runner/row-store.ts';

const feedback = rowTable('feedback', ['id'], [['owner']]);

// Inline: an operator listing feedback right after it was sent sees it, and a status set is read back at once.
export const feedbackProjection = rowProjection({
  name: 'feedback',
  handles: ['FeedbackSubmitted', 'FeedbackStatusChanged', 'AccountErased', 'GuestErased'],
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
    } else if (event.type === 'AccountErased' || event.type === 'GuestErased') {
      // The feedback stays for the product; who sent it does not (from the account, or its guest sessions before; or
      // from a guest who never signed in).
      let owners: string[];
      if (event.type === 'AccountErased') {
        const data = accountErasedSchema.parse(event.data);
        owners = [`user:${data.userId}`, ...data.guestIds.map((guestId) => `guest:${guestId}`)];
      } else {
        owners = [`guest:${guestErasedSchema.parse(event.data).guestId}`];
      }
      for (const owner of owners) {
        for (const row of await rows.find(feedback, { owner })) {
          const erased = erasePersonalFields('FeedbackSubmitted', { name: row.name, email: row.email });
          await rows.update(feedback, { id: row.id }, { name: erased.name, email: erased.email });
        }
      }
    }
  },
});
