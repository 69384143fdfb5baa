import type { FeedbackStatus } from '../../contracts/feedback.ts';
import { feedbackDecider } from '../../domain/feedback/index.ts';
import type { EventMetadata, EventStore } from '../../infra/event-store/types.ts';
import { handleCommand } from '../handle-command.ts';
import { feedbackStream } from './streams.ts';

/** Triage by an operator (`npm run feedback -- set-status`). Returns false when it already had that status. */
export async function setFeedbackStatus(
  context: { store: EventStore; metadata: EventMetadata },
  input: { feedbackId: string; status: FeedbackStatus },
): Promise<boolean> {
  const { events } = await handleCommand(context, {
    ...feedbackStream(input.feedbackId),
    decider: feedbackDecider,
    command: { type: 'SetFeedbackStatus', data: { feedbackId: input.feedbackId, status: input.status, changedAt: context.metadata.timestamp } },
  });
  return events.length > 0;
}
