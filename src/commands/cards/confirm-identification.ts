import type { Kysely } from 'kysely';
import { AppError } from '../../contracts/errors.ts';
import type { Owner } from '../../domain/accounts/identity.ts';
import { catalogIdentification } from '../../domain/catalog/index.ts';
import { cardDecider, cardNotFound, type ConfirmedCardValue, type ConfirmedCatalogCard } from '../../domain/cards/index.ts';
import { portfolioCardDecider } from '../../domain/portfolio/index.ts';
import type { Tables } from '../../infra/database/schema.ts';
import type { EventMetadata, EventStore } from '../../infra/event-store/types.ts';
import { handleCommand } from '../handle-command.ts';
import { portfolioCardStream } from '../portfolio/streams.ts';
import { cardPrice, portfolioPrice, priceCatalogCard, type CatalogCardPriceLookup, type CatalogPricing } from '../prices/price-catalog-card.ts';
import { cardStream } from './streams.ts';

// ConfirmIdentification (issue 32): the owner says which catalogue card it is, usually one of the candidates offered
// when identification was not sure. The catalogue's facts of that card are recorded with the event, and the card's
// value follows at once: the confirmed card is priced through the same price ports as the daily refresh, and its price
// recorded on the card's stream right after the confirmation (and on the portfolio entries added from the card). When
// the sources cannot say, the confirmation still stands and records why the value is missing, in plain words. Owner
// only (to anyone else the card does not exist); the card already confirmed records nothing but a price that moved.

/** Why there is no value when looking it up failed in a way the price ports do not report themselves (a bug). */
export const PRICE_LOOKUP_FAILED = 'the price could not be looked up just now; the daily price refresh will try again';

export async function confirmIdentification(
  context: { store: EventStore; metadata: EventMetadata; db: Kysely<Tables>; pricing: CatalogPricing },
  input: { cardId: string; requestedBy: Owner; catalogId: string },
): Promise<{ confirmed: boolean; priced: boolean }> {
  const found = context.pricing.catalog.byId(input.catalogId);
  if (!found) throw new AppError('invalid', 'unknown_catalog_card', `No card in the catalogue has the id "${input.catalogId}"`);
  // Someone else's card (or none) is refused before any price is asked for: a stranger learns nothing and costs no
  // lookup. The decider refuses them again, against the stream.
  const row = await context.db.selectFrom('card_grades').select(['owner', 'overall_grade']).where('id', '=', input.cardId).executeTakeFirst();
  if (!row || row.owner !== input.requestedBy) throw cardNotFound();

  const { cardName, cardSet, cardNumber, cardYear, rarity, cardFacts, setDescription } = catalogIdentification({ card: found, confidence: 1 });
  const card: ConfirmedCatalogCard = { catalogId: found.id, cardName, cardSet, cardNumber, cardYear, rarity, cardFacts, setDescription };
  const lookup: CatalogCardPriceLookup = await priceCatalogCard(context.pricing, found.id).catch(() => ({ ok: false, reason: PRICE_LOOKUP_FAILED }));
  const value: ConfirmedCardValue = lookup.ok ? { priced: true, price: { ...cardPrice(lookup.price), grade: row.overall_grade } } : { priced: false, reason: lookup.reason };
  const { events } = await handleCommand(context, {
    ...cardStream(input.cardId),
    decider: cardDecider,
    command: { type: 'ConfirmIdentification', data: { cardId: input.cardId, requestedBy: input.requestedBy, card, value, confirmedAt: context.metadata.timestamp } },
  });

  if (lookup.ok) {
    // The owner's portfolio entries added from this card are worth the same (a price they typed in stays theirs).
    const linked = await context.db.selectFrom('portfolio_cards').select('id').where('graded_card_id', '=', input.cardId).where('owner', '=', input.requestedBy).execute();
    for (const { id } of linked) {
      await handleCommand(context, {
        ...portfolioCardStream(id),
        decider: portfolioCardDecider,
        command: { type: 'RefreshPortfolioCardPrice', data: { ...portfolioPrice(lookup.price), cardId: id, at: context.metadata.timestamp } },
      });
    }
  }
  return { confirmed: events.some((event) => event.type === 'CardIdentificationConfirmed'), priced: lookup.ok };
}
