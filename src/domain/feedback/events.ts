import { z } from 'zod';
import { feedbackCategorySchema, feedbackStatusSchema } from '../../contracts/feedback.ts';
import { ownerSchema } from '../cards/events.ts';
import type { DomainEvent } from '../decider.ts';

// The events of one piece of feedback, stream `feedback-<feedbackId>`. Version 1 of each; times are ISO strings
// from the injected clock.

/** The attachment, kept in the image store by the SHA-256 of its bytes. */
export const feedbackImageSchema = z.object({
  hash: z.string().regex(/^[0-9a-f]{64}$/, 'An image hash is a SHA-256 in lower-case hex'),
  contentType: z.string(),
  size: z.number().int().nonnegative(),
});

export const feedbackSubmittedSchema = z.object({
  feedbackId: z.uuid(),
  /** Who sent it: a user, or a guest session (guests may send feedback too). */
  owner: ownerSchema,
  name: z.string().nullable(),
  email: z.string().nullable(),
  category: feedbackCategorySchema,
  feedbackText: z.string().min(1),
  image: feedbackImageSchema.nullable(),
  submittedAt: z.string(),
});
export type FeedbackSubmitted = DomainEvent<'FeedbackSubmitted', z.infer<typeof feedbackSubmittedSchema>>;

/** An operator moved it on (triage). */
export const feedbackStatusChangedSchema = z.object({
  feedbackId: z.uuid(),
  from: feedbackStatusSchema,
  to: feedbackStatusSchema,
  changedAt: z.string(),
});
export type FeedbackStatusChanged = DomainEvent<'FeedbackStatusChanged', z.infer<typeof feedbackStatusChangedSchema>>;

export type FeedbackEvent = FeedbackSubmitted | FeedbackStatusChanged;

export const feedbackEventSchemas = {
  FeedbackSubmitted: feedbackSubmittedSchema,
  FeedbackStatusChanged: feedbackStatusChangedSchema,
} as const;
