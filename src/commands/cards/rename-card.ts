import type { Owner } from '../../domain/accounts/identity.ts';
import { cardDecider } from '../../domain/cards/index.ts';
import type { EventMetadata, EventStore } from '../../infra/event-store/types.ts';
import { handleCommand } from '../handle-command.ts';
import { cardStream } from './streams.ts';

// RenameCard (issue 35): the owner names a graded card, in the collection or on its page. Owner only, like save and
// delete; the same name again records nothing.

export async function renameCard(
  context: { store: EventStore; metadata: EventMetadata },
  input: { cardId: string; requestedBy: Owner; name: string },
): Promise<{ renamed: boolean }> {
  const { events } = await handleCommand(context, {
    ...cardStream(input.cardId),
    decider: cardDecider,
    command: { type: 'RenameCard', data: { cardId: input.cardId, requestedBy: input.requestedBy, name: input.name, renamedAt: context.metadata.timestamp } },
  });
  return { renamed: events.length > 0 };
}
