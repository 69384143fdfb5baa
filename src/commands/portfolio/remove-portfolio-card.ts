import type { Owner } from '../../domain/accounts/identity.ts';
import { portfolioCardDecider } from '../../domain/portfolio/index.ts';
import type { EventMetadata, EventStore } from '../../infra/event-store/types.ts';
import { handleCommand } from '../handle-command.ts';
import { portfolioCardStream } from './streams.ts';

/** Owner only: anyone else gets the 404 of an unknown card. Removing twice succeeds. */
export async function removePortfolioCard(context: { store: EventStore; metadata: EventMetadata }, input: { cardId: number; requestedBy: Owner }): Promise<void> {
  await handleCommand(context, {
    ...portfolioCardStream(input.cardId),
    decider: portfolioCardDecider,
    command: { type: 'RemovePortfolioCard', data: { cardId: input.cardId, requestedBy: input.requestedBy, at: context.metadata.timestamp } },
  });
}
