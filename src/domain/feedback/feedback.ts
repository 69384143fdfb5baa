import { AppError } from '../../contracts/errors.ts';
import type { FeedbackStatus } from '../../contracts/feedback.ts';
import { assertNever, type Decider } from '../decider.ts';
import type { FeedbackEvent, FeedbackStatusChanged, FeedbackSubmitted } from './events.ts';

// One piece of feedback, stream `feedback-<feedbackId>`: sent once by a user or a guest, then triaged by operators.

export type FeedbackState = { status: 'none' } | { status: FeedbackStatus; feedbackId: string };

export type SubmitFeedback = { type: 'SubmitFeedback'; data: FeedbackSubmitted['data'] };
export type SetFeedbackStatus = { type: 'SetFeedbackStatus'; data: { feedbackId: string; status: FeedbackStatus; changedAt: string } };
export type FeedbackCommand = SubmitFeedback | SetFeedbackStatus;

export const feedbackNotFound = () => new AppError('not_found', 'feedback_not_found', 'Feedback not found');

/** Recorded once: the same command retried (same id) changes nothing. */
export function submitFeedback(command: SubmitFeedback, state: FeedbackState): FeedbackEvent[] {
  if (state.status !== 'none') return [];
  return [{ type: 'FeedbackSubmitted', data: command.data }];
}

/** Any status may follow any other; setting the status it already has changes nothing. */
export function setFeedbackStatus(command: SetFeedbackStatus, state: FeedbackState): FeedbackEvent[] {
  if (state.status === 'none') throw feedbackNotFound();
  const { feedbackId, status, changedAt } = command.data;
  if (state.status === status) return [];
  const changed: FeedbackStatusChanged = { type: 'FeedbackStatusChanged', data: { feedbackId, from: state.status, to: status, changedAt } };
  return [changed];
}

export function evolveFeedback(state: FeedbackState, event: FeedbackEvent): FeedbackState {
  switch (event.type) {
    case 'FeedbackSubmitted':
      return { status: 'new', feedbackId: event.data.feedbackId };
    case 'FeedbackStatusChanged':
      return { status: event.data.to, feedbackId: event.data.feedbackId };
    default:
      return assertNever(event);
  }
}

export const feedbackDecider: Decider<FeedbackState, FeedbackCommand, FeedbackEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveFeedback,
  decide(command, state) {
    switch (command.type) {
      case 'SubmitFeedback':
        return submitFeedback(command, state);
      case 'SetFeedbackStatus':
        return setFeedbackStatus(command, state);
      default:
        return assertNever(command);
    }
  },
};
