import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { feedbackImageTooLarge, submitFeedback } from '../../commands/feedback/submit-feedback.ts';
import { AppError } from '../../contracts/errors.ts';
import { IMAGE_FORMATS_LABEL } from '../../contracts/image-formats.ts';
import { FEEDBACK_IMAGE_MAX_BYTES, feedbackFieldsSchema, feedbackSubmittedResponseSchema, type FeedbackSubmittedResponse } from '../../contracts/feedback.ts';
import { ownerOf } from '../../domain/accounts/identity.ts';
import { findFeedback } from '../../projections/feedback/queries.ts';
import type { RouteOptions } from '../app.ts';
import { fileField, routeDocs } from '../route-docs.ts';
import { hitCallerLimits } from '../caller-limits.ts';
import { commandMetadata } from '../plugins/session.ts';

// POST /api/feedback (SPEC.md §7): the Share Your Feedback form, from users and guests alike. Guests are limited per
// address, users per account, so the form cannot be used to fill the table.

const TEXT_FIELDS = ['name', 'email', 'category', 'feedbackText'] as const;

interface FeedbackUpload {
  fields: Record<string, string>;
  image: Buffer | null;
}

async function readFeedbackUpload(request: FastifyRequest): Promise<FeedbackUpload> {
  if (!request.isMultipart()) {
    throw new AppError('unsupported', 'multipart_required', 'Send feedback as multipart/form-data: name, email, category, feedbackText and optionally image (a file).');
  }
  const upload: FeedbackUpload = { fields: {}, image: null };
  // One byte past the limit is enough to know the image is too large.
  const parts = request.parts({ limits: { fileSize: FEEDBACK_IMAGE_MAX_BYTES, files: 1, fields: TEXT_FIELDS.length, parts: TEXT_FIELDS.length + 1 } });
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'image') {
          part.file.resume();
          throw new AppError('invalid', 'unexpected_field', `Unexpected file field '${part.fieldname}': the picture goes in 'image'.`);
        }
        const bytes = await part.toBuffer();
        // A form's empty file input arrives as a part with no name and no bytes: nothing was chosen.
        if (bytes.length > 0 || part.filename) upload.image = bytes;
      } else {
        if (!(TEXT_FIELDS as readonly string[]).includes(part.fieldname)) {
          throw new AppError('invalid', 'unexpected_field', `Unexpected field '${part.fieldname}': the fields are ${TEXT_FIELDS.join(', ')} and image.`);
        }
        upload.fields[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw feedbackImageTooLarge();
    if (error instanceof AppError || typeof (error as { statusCode?: unknown }).statusCode === 'number') throw error;
    throw new AppError('invalid', 'invalid_multipart', 'The upload is not a well-formed multipart/form-data body.');
  }
  return upload;
}

export const feedbackRoutes: FastifyPluginAsync<RouteOptions> = async (app, { runtime }) => {
  const { eventStore: store, imageStore, clock, ids, accounts } = runtime;
  const limits = { user: accounts.limits.feedbackUser, guest: accounts.limits.feedbackGuest };

  app.post('/api/feedback', { schema: routeDocs({ summary: 'Send feedback, with an optional picture (users and guests)', tags: ['feedback'], multipart: feedbackFieldsSchema.extend({ image: fileField(`A picture (by its bytes: ${IMAGE_FORMATS_LABEL}), under 5 MB`).optional() }), responses: { 201: feedbackSubmittedResponseSchema }, errors: [400, 413, 415, 429] }, 'POST') }, async (request, reply): Promise<FeedbackSubmittedResponse> => {
    const wait = await hitCallerLimits(accounts.rateLimiter, 'feedback', limits, request, reply);
    if (wait !== null) {
      throw new AppError('rate_limited', 'feedback_rate_limited', `You have sent a lot of feedback in a short time. Please try again in ${wait}.`);
    }
    const { fields: rawFields, image } = await readFeedbackUpload(request);
    const fields = feedbackFieldsSchema.parse(rawFields);
    const { feedbackId } = await submitFeedback(
      { store, imageStore },
      { feedbackId: ids.uuid(), owner: ownerOf(request.session), fields, image, metadata: commandMetadata(request, clock, ids) },
    );
    // Inline projection: the row is there as soon as the append has committed.
    const feedback = await findFeedback(runtime.database.db, feedbackId);
    if (!feedback) throw new Error(`Feedback ${feedbackId} was recorded but its row is missing`);
    reply.status(201);
    return { message: 'Thank you for your feedback!', feedback };
  });
};
