import { describe, expect, it } from 'vitest';
import { feedbackFieldsSchema } from '../../src/contracts/feedback.ts';
import { feedbackDecider, feedbackEventSchemas, type FeedbackStatusChanged, type FeedbackSubmitted } from '../../src/domain/feedback/index.ts';
import { specify } from '../accounts/decider-spec.ts';

const given = specify(feedbackDecider);

const feedbackId = '3f1e2d4c-5b6a-4789-8abc-def012345678';
const submitted: FeedbackSubmitted = {
  type: 'FeedbackSubmitted',
  data: {
    feedbackId,
    owner: 'guest:0b7e3c1a-1111-4222-8333-444455556666',
    name: 'Misty W',
    email: 'misty@example.com',
    category: 'bug',
    feedbackText: 'The corners grade looks off on holo cards.',
    image: { hash: 'a'.repeat(64), contentType: 'image/png', size: 1234 },
    submittedAt: '2026-11-25T09:00:00.000Z',
  },
};
const reviewed: FeedbackStatusChanged = {
  type: 'FeedbackStatusChanged',
  data: { feedbackId, from: 'new', to: 'reviewed', changedAt: '2026-11-25T10:00:00.000Z' },
};

describe('sending feedback', () => {
  it('records it as sent, with its attachment', () => {
    given([]).when({ type: 'SubmitFeedback', data: submitted.data }).then([submitted]);
    expect(feedbackEventSchemas.FeedbackSubmitted.parse(submitted.data)).toEqual(submitted.data);
  });

  it('records it once: the same command again changes nothing', () => {
    given([submitted]).when({ type: 'SubmitFeedback', data: submitted.data }).then([]);
  });
});

describe('triage', () => {
  it('moves new feedback to another status, saying from which', () => {
    given([submitted]).when({ type: 'SetFeedbackStatus', data: { feedbackId, status: 'reviewed', changedAt: reviewed.data.changedAt } }).then([reviewed]);
  });

  it('goes on from the last status, back to new included', () => {
    given([submitted, reviewed])
      .when({ type: 'SetFeedbackStatus', data: { feedbackId, status: 'new', changedAt: '2026-11-25T11:00:00.000Z' } })
      .then([{ type: 'FeedbackStatusChanged', data: { feedbackId, from: 'reviewed', to: 'new', changedAt: '2026-11-25T11:00:00.000Z' } }]);
  });

  it('changes nothing when it already has that status', () => {
    given([submitted, reviewed]).when({ type: 'SetFeedbackStatus', data: { feedbackId, status: 'reviewed', changedAt: 'x' } }).then([]);
  });

  it('refuses feedback that was never sent', () => {
    given([]).when({ type: 'SetFeedbackStatus', data: { feedbackId, status: 'closed', changedAt: 'x' } }).thenRefuses('feedback_not_found');
  });
});

describe('the form fields (SPEC.md §5)', () => {
  it('trims the text and requires it, with the words of the Missing Feedback toast', () => {
    expect(feedbackFieldsSchema.parse({ feedbackText: '  Great app \r\n' })).toEqual({ name: null, email: null, category: 'general', feedbackText: 'Great app' });
    for (const blank of [undefined, '', '   \n\t ']) {
      const parsed = feedbackFieldsSchema.safeParse({ feedbackText: blank });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe('Please provide your feedback before submitting.');
    }
  });

  it('takes the six categories and no other', () => {
    for (const category of ['general', 'bug', 'feature', 'improvement', 'ui', 'performance']) {
      expect(feedbackFieldsSchema.parse({ feedbackText: 'x', category }).category).toBe(category);
    }
    expect(feedbackFieldsSchema.safeParse({ feedbackText: 'x', category: 'praise' }).success).toBe(false);
  });

  it('lets name and email be left empty, but an email given must be one', () => {
    expect(feedbackFieldsSchema.parse({ feedbackText: 'x', name: ' ', email: '' })).toMatchObject({ name: null, email: null });
    expect(feedbackFieldsSchema.safeParse({ feedbackText: 'x', email: 'not-an-email' }).error?.issues[0]?.message).toBe('Please enter a valid email');
    expect(feedbackFieldsSchema.safeParse({ feedbackText: 'x\u0000' }).success).toBe(false);
  });
});
