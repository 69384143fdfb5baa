// Feedback from users and guests, and its triage: events and the decider. Pure.
export * from './events.ts';
export { feedbackDecider, feedbackNotFound, type FeedbackCommand, type FeedbackState, type SetFeedbackStatus, type SubmitFeedback } from './feedback.ts';
