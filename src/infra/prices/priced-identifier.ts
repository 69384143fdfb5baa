import type { Catalog } from '../../domain/catalog/index.ts';
import type { CardIdentifier } from '../identification/card-identifier.ts';
import { priceEstimate, unavailableEstimate, type PriceSource } from './price-source.ts';

// The value beside the identification: a card the catalogue matched is priced by the price source, labelled with
// what the figure is, where from and when; when the source cannot say, N/A with the reason. Who the card is never
// depends on it: the identification is the identifier's, whatever the network does. A vision model's own labelled
// estimate stays when the market has no figure.

export function withMarketPrice(identifier: CardIdentifier, prices: PriceSource, catalog: Catalog): CardIdentifier {
  return {
    async identify(front, back) {
      const identification = await identifier.identify(front, back);
      if (identification.catalogId === null) return identification;
      const card = catalog.byId(identification.catalogId);
      const lookup = await prices.priceOf({ catalogId: identification.catalogId, rarity: card?.rarity ?? null });
      if (lookup.ok) return { ...identification, estimatedValue: priceEstimate(lookup.price) };
      return identification.estimatedValue ? identification : { ...identification, estimatedValue: unavailableEstimate(lookup.reason) };
    },
    close: () => identifier.close(),
  };
}
