import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { worthGradingSchema, type WorthGrading } from '../../contracts/worth-grading.ts';
import { cardIdSchema, cardNotFound } from '../../domain/cards/index.ts';
import { worthGrading } from '../../domain/orders/index.ts';
import { findCard } from '../../projections/cards/queries.ts';
import type { RouteOptions } from '../app.ts';
import { routeDocs } from '../route-docs.ts';

// "Is it worth grading?" (issue 32 item 4): the card's PSA grade odds, its value at each grade from the per-grade price
// source, and each service level's cost from the quote. Like the card itself (GET /api/card/{id}), anyone with the
// card's unguessable id may read it: the result screen of a shared link shows it too.

export const NOT_IDENTIFIED_REASON = 'The card was not matched to the catalogue, so there is no value to weigh against the cost of grading.';
export const NO_ESTIMATE_REASON = 'The card was graded before the PSA estimate existed: grade it again to see the odds.';

const params = z.object({ id: z.string().meta({ description: 'The card id (22 characters)' }) });

export const worthGradingRoutes: FastifyPluginAsync<RouteOptions> = async (app, { runtime }) => {
  const { db } = runtime.database;
  const { provider } = runtime.accounts;

  app.get(
    '/api/card/:id/worth-grading',
    { schema: routeDocs({ summary: 'Is it worth grading? PSA grade odds × value per grade, less each service level\'s cost', tags: ['grading'], params, responses: { 200: worthGradingSchema }, errors: [404] }, 'GET') },
    async (request): Promise<WorthGrading> => {
      const id = cardIdSchema.safeParse(params.parse(request.params).id);
      if (!id.success) throw cardNotFound();
      const row = await findCard(db, id.data);
      if (!row) throw cardNotFound();
      const card = row.result;
      const catalogId = card.identification.catalogId;
      if (catalogId === null) return { available: false, cardId: row.id, reason: NOT_IDENTIFIED_REASON };
      if (!card.psaEstimate) return { available: false, cardId: row.id, reason: NO_ESTIMATE_REASON };
      const lookup = await runtime.gradedPrices.gradedPricesOf({ catalogId, name: card.cardName, set: card.cardSet, number: card.cardNumber });
      return worthGrading({
        cardId: row.id,
        estimate: card.psaEstimate,
        prices: lookup.ok ? lookup.prices : null,
        priceNote: lookup.ok ? null : lookup.reason,
        levels: await provider.serviceLevels(),
      });
    },
  );
};
