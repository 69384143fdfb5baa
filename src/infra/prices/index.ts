import type { Config } from '../../config.ts';
import { createPokemonTcgApiPriceSource, type PokemonTcgApiOptions } from './pokemon-tcg-api.ts';
import { noPriceSource, type PriceSource } from './price-source.ts';
import { noGradedPriceSource, type GradedPriceSource } from './graded-price-source.ts';
import { createPriceChartingSource } from './pricecharting-api.ts';

export * from './price-source.ts';
export * from './graded-price-source.ts';
export { createPriceChartingSource, gradedPricesFromAnswer, PRICECHARTING_API_URL, PRICECHARTING_GRADE_FIELDS, searchTextFor } from './pricecharting-api.ts';
export { createPokemonTcgApiPriceSource, POKEMON_TCG_API_URL, priceFromAnswer, printingsFor } from './pokemon-tcg-api.ts';
export { withMarketPrice } from './priced-identifier.ts';

/** PRICE_SOURCE: the Pokémon TCG API (default), or none. */
export function createPriceSource(
  config: Pick<Config, 'PRICE_SOURCE' | 'POKEMONTCG_API_URL' | 'POKEMONTCG_API_KEY' | 'PRICE_TIMEOUT_MS'>,
  extra: Pick<PokemonTcgApiOptions, 'now' | 'onLookup'> = {},
): PriceSource {
  if (config.PRICE_SOURCE === 'none') return noPriceSource;
  return createPokemonTcgApiPriceSource({ baseUrl: config.POKEMONTCG_API_URL, apiKey: config.POKEMONTCG_API_KEY, timeoutMs: config.PRICE_TIMEOUT_MS, ...extra });
}

/** Per-grade prices: PriceCharting's API when PRICECHARTING_TOKEN is set, else none. */
export function createGradedPriceSource(
  config: Pick<Config, 'PRICECHARTING_TOKEN' | 'PRICECHARTING_API_URL' | 'PRICE_TIMEOUT_MS'>,
  now?: () => number,
): GradedPriceSource {
  if (!config.PRICECHARTING_TOKEN) return noGradedPriceSource;
  return createPriceChartingSource({ token: config.PRICECHARTING_TOKEN, baseUrl: config.PRICECHARTING_API_URL, timeoutMs: config.PRICE_TIMEOUT_MS, ...(now ? { now } : {}) });
}
