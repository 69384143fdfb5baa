import { z } from 'zod';
import { cleanText } from './text.ts';

// The feedback form and call of SPEC.md (§3 feedback, §4 form, §5 rules, §7 POST /api/feedback, §8 messages),
// shared by the server and the web app.

/** SPEC.md §5, in the order the form lists them; 'general' is the default. */
export const FEEDBACK_CATEGORIES = [
  { value: 'general', label: 'General Feedback' },
  { value: 'bug', label: 'Bug Report' },
  { value: 'feature', label: 'Feature Request' },
  { value: 'improvement', label: 'Improvement Suggestion' },
  { value: 'ui', label: 'User Interface' },
  { value: 'performance', label: 'Performance' },
] as const;
export const feedbackCategorySchema = z.enum(['general', 'bug', 'feature', 'improvement', 'ui', 'performance'], {
  error: `The category is one of ${FEEDBACK_CATEGORIES.map((c) => c.value).join(', ')}`,
});
export type FeedbackCategory = z.infer<typeof feedbackCategorySchema>;

/**
 * Where operators move feedback as they triage it (`npm run feedback -- set-status`). SPEC.md §5 names only the
 * default 'new'; the rest is ours (DESIGN.md decides open points): any status may follow any other.
 */
export const FEEDBACK_STATUSES = ['new', 'reviewed', 'in_progress', 'resolved', 'closed'] as const;
export const feedbackStatusSchema = z.enum(FEEDBACK_STATUSES, { error: `The status is one of ${FEEDBACK_STATUSES.join(', ')}` });
export type FeedbackStatus = z.infer<typeof feedbackStatusSchema>;

/** SPEC.md §9: the attachment's limit. */
export const FEEDBACK_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const FEEDBACK_TEXT_MAX = 5000;

/** The words of SPEC.md §8 for each refusal, title and description, for the toasts and the server's errors. */
export const feedbackMessages = {
  missingFeedback: { title: 'Missing Feedback', description: 'Please provide your feedback before submitting.' },
  invalidFileType: { title: 'Invalid File Type', description: 'Please select an image file (JPG, PNG, etc.)' },
  fileTooLarge: { title: 'File Too Large', description: 'Image must be smaller than 5MB' },
  submissionFailed: { title: 'Submission Failed', description: 'Failed to submit feedback. Please try again.' },
} as const;

const optionalLine = (kind: 'name' | 'line', max: number, tooLong: string) =>
  cleanText(kind, z.string().trim().max(max, tooLong).optional()).transform((v) => (v ? v : null));

/** POST /api/feedback text fields (the image comes as an `image` file part). Name and email may be left empty. */
export const feedbackFieldsSchema = z.object({
  name: optionalLine('name', 255, 'Name must be at most 255 characters'),
  email: optionalLine('line', 255, 'Email must be at most 255 characters').refine(
    (v) => v === null || z.email().safeParse(v).success,
    'Please enter a valid email',
  ),
  category: z.preprocess((v) => (v === undefined || v === '' ? 'general' : v), feedbackCategorySchema),
  feedbackText: cleanText(
    'multiline',
    z
      .string({ error: feedbackMessages.missingFeedback.description })
      .trim()
      .min(1, feedbackMessages.missingFeedback.description)
      .max(FEEDBACK_TEXT_MAX, `Feedback must be at most ${FEEDBACK_TEXT_MAX} characters`),
  ),
});
export type FeedbackFieldsInput = z.input<typeof feedbackFieldsSchema>;
export type FeedbackFields = z.output<typeof feedbackFieldsSchema>;

/** A row of the feedback read model (SPEC.md §3 feedback), as operators read it. */
export const feedbackEntrySchema = z.object({
  id: z.string(),
  userId: z.string().nullable(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  feedbackText: z.string(),
  imageUrl: z.string().nullable(),
  category: feedbackCategorySchema,
  status: feedbackStatusSchema,
  createdAt: z.string(),
});
export type FeedbackEntry = z.infer<typeof feedbackEntrySchema>;

/** POST /api/feedback's answer: the feedback as it was recorded. */
export const feedbackSubmittedResponseSchema = z.object({
  message: z.string(),
  feedback: feedbackEntrySchema,
});
export type FeedbackSubmittedResponse = z.infer<typeof feedbackSubmittedResponseSchema>;
