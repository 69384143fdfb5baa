import { AppError } from '../../contracts/errors.ts';
import { FEEDBACK_IMAGE_MAX_BYTES, feedbackMessages, type FeedbackFields } from '../../contracts/feedback.ts';
import { sniffImageType } from '../../contracts/image-formats.ts';
import type { Owner } from '../../domain/accounts/identity.ts';
import { feedbackDecider } from '../../domain/feedback/index.ts';
import type { EventMetadata, EventStore } from '../../infra/event-store/types.ts';
import type { ImageStore } from '../../infra/image-storage/index.ts';
import { handleCommand } from '../handle-command.ts';
import { feedbackStream } from './streams.ts';

// SubmitFeedback: the form's fields and an optional picture. The picture is judged by its bytes (never its name or
// the type the browser claims) and its size before anything is stored, so a refused one leaves nothing behind.

export const feedbackImageInvalid = () => new AppError('unsupported', 'feedback_image_invalid', feedbackMessages.invalidFileType.description);
export const feedbackImageTooLarge = () => new AppError('too_large', 'feedback_image_too_large', feedbackMessages.fileTooLarge.description);

export interface SubmitFeedbackInput {
  feedbackId: string;
  owner: Owner;
  fields: FeedbackFields;
  image: Uint8Array | null;
  metadata: EventMetadata;
}

export async function submitFeedback(deps: { store: EventStore; imageStore: ImageStore }, input: SubmitFeedbackInput): Promise<{ feedbackId: string }> {
  const { image, fields, metadata } = input;
  if (image && image.length > FEEDBACK_IMAGE_MAX_BYTES) throw feedbackImageTooLarge();
  if (image && !sniffImageType(image)) throw feedbackImageInvalid();
  const stored = image ? await deps.imageStore.put(image) : null;
  await handleCommand(
    { store: deps.store, metadata },
    {
      ...feedbackStream(input.feedbackId),
      decider: feedbackDecider,
      command: {
        type: 'SubmitFeedback',
        data: {
          feedbackId: input.feedbackId,
          owner: input.owner,
          name: fields.name,
          email: fields.email,
          category: fields.category,
          feedbackText: fields.feedbackText,
          image: stored ? { hash: stored.hash, contentType: stored.contentType, size: stored.size } : null,
          submittedAt: metadata.timestamp,
        },
      },
    },
  );
  return { feedbackId: input.feedbackId };
}
