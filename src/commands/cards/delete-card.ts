import type { Owner } from '../../domain/accounts/identity.ts';
import { cardDecider } from '../../domain/cards/index.ts';
import type { EventMetadata, EventStore } from '../../infra/event-store/types.ts';
import { handleCommand } from '../handle-command.ts';
import { cardStream } from './streams.ts';

/** Owner only: anyone else gets the 404 of an unknown card (the decider decides). Deleting twice succeeds. */
export async function deleteCard(
  context: { store: EventStore; metadata: EventMetadata },
  input: { cardId: string; requestedBy: Owner },
): Promise<void> {
  await handleCommand(context, {
    ...cardStream(input.cardId),
    decider: cardDecider,
    command: { type: 'DeleteCard', data: { cardId: input.cardId, requestedBy: input.requestedBy, deletedAt: context.metadata.timestamp } },
  });
}
