import { AppError } from '../../contracts/errors.ts';
import type { Owner } from '../../domain/accounts/identity.ts';
import { catalogIdentification, type Catalog } from '../../domain/catalog/index.ts';
import { cardDecider, type ConfirmedCatalogCard } from '../../domain/cards/index.ts';
import type { EventMetadata, EventStore } from '../../infra/event-store/types.ts';
import { handleCommand } from '../handle-command.ts';
import { cardStream } from './streams.ts';

// ConfirmIdentification (issue 32): the owner says which catalogue card it is, usually one of the candidates offered
// when identification was not sure. The catalogue's facts of that card are recorded with the event. Owner only (to
// anyone else the card does not exist); the card already confirmed records nothing.

export async function confirmIdentification(
  context: { store: EventStore; metadata: EventMetadata; catalog: Catalog },
  input: { cardId: string; requestedBy: Owner; catalogId: string },
): Promise<{ confirmed: boolean }> {
  const found = context.catalog.byId(input.catalogId);
  if (!found) throw new AppError('invalid', 'unknown_catalog_card', `No card in the catalogue has the id "${input.catalogId}"`);
  const { cardName, cardSet, cardNumber, cardYear, rarity, cardFacts, setDescription } = catalogIdentification({ card: found, confidence: 1 });
  const card: ConfirmedCatalogCard = { catalogId: found.id, cardName, cardSet, cardNumber, cardYear, rarity, cardFacts, setDescription };
  const { events } = await handleCommand(context, {
    ...cardStream(input.cardId),
    decider: cardDecider,
    command: { type: 'ConfirmIdentification', data: { cardId: input.cardId, requestedBy: input.requestedBy, card, confirmedAt: context.metadata.timestamp } },
  });
  return { confirmed: events.length > 0 };
}
