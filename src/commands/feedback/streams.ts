// Where a piece of feedback lives in the event store.
export const feedbackStream = (feedbackId: string) => ({ streamId: `feedback-${feedbackId}`, streamType: 'feedback' });
