import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { messageResponseSchema } from '../../contracts/cards.ts';
import { z } from 'zod';
import { addPortfolioCard } from '../../commands/portfolio/add-portfolio-card.ts';
import { editPortfolioCard, patchChanges, putChanges } from '../../commands/portfolio/edit-portfolio-card.ts';
import { removePortfolioCard } from '../../commands/portfolio/remove-portfolio-card.ts';
import { addPortfolioCardSchema, patchPortfolioCardSchema, portfolioCardDetailSchema, portfolioCardSchema, portfolioValuePointSchema, putPortfolioCardSchema, type PortfolioCard, type PortfolioCardDetail } from '../../contracts/portfolio.ts';
import type { Owner } from '../../domain/accounts/identity.ts';
import { portfolioCardNotFound } from '../../domain/portfolio/index.ts';
import { findPortfolioCard, portfolioOf, portfolioPriceHistory, portfolioValueHistory } from '../../projections/portfolio/queries.ts';
import type { RouteOptions } from '../app.ts';
import { routeDocs } from '../route-docs.ts';
import { commandMetadata, requireUser } from '../plugins/session.ts';

// The portfolio (SPEC.md §7): list, add, read one, inline edit (PATCH), detail edit (PUT), delete, and beyond SPEC
// the portfolio's value by day. Signed-in users only (SPEC.md §6: the list query runs only when signed in); the
// owner is always the session's user, whatever a body says, and another user's card answers like a missing one.

const MAX_ID = 2_147_483_647;

const portfolioIdParams = z.object({ id: z.string().meta({ description: 'The portfolio card id (a positive integer)' }) });

export const portfolioRoutes: FastifyPluginAsync<RouteOptions> = async (app, { runtime }) => {
  const { eventStore: store, clock, ids } = runtime;
  const { db } = runtime.database;

  const ownerOfRequest = (request: FastifyRequest): Owner => `user:${requireUser(request)}`;

  /** The id in the path: an integer, or the 404 of an unknown card (nothing to tell apart for a prober). */
  function cardIdParam(request: FastifyRequest): number {
    const raw = (request.params as { id?: unknown }).id;
    if (typeof raw !== 'string' || !/^[1-9]\d{0,9}$/.test(raw) || Number(raw) > MAX_ID) throw portfolioCardNotFound();
    return Number(raw);
  }

  async function cardOf(owner: Owner, id: number): Promise<PortfolioCard> {
    const card = await findPortfolioCard(db, owner, id);
    if (!card) throw portfolioCardNotFound();
    return card;
  }

  app.get('/api/portfolio', { schema: routeDocs({ summary: "The caller's portfolio", tags: ['portfolio'], responses: { 200: z.array(portfolioCardSchema) } }, 'GET') }, async (request, reply) => {
    const owner = ownerOfRequest(request);
    reply.header('cache-control', 'private, no-store');
    return portfolioOf(db, owner);
  });

  app.post('/api/portfolio', { schema: routeDocs({ summary: 'Add a card to the portfolio', tags: ['portfolio'], body: addPortfolioCardSchema, responses: { 201: portfolioCardSchema }, errors: [400] }, 'POST') }, async (request, reply) => {
    const owner = ownerOfRequest(request);
    const body = addPortfolioCardSchema.parse(request.body ?? {});
    const cardId = await addPortfolioCard({ store, db, metadata: commandMetadata(request, clock, ids) }, { owner, body });
    return reply.status(201).send(await cardOf(owner, cardId));
  });

  app.get('/api/portfolio/value-history', { schema: routeDocs({ summary: "The portfolio's value and cost by day", tags: ['portfolio'], responses: { 200: z.array(portfolioValuePointSchema) } }, 'GET') }, async (request) => portfolioValueHistory(db, ownerOfRequest(request), clock.now()));

  app.get('/api/portfolio/:id', { schema: routeDocs({ summary: 'One portfolio card with its price history', tags: ['portfolio'], params: portfolioIdParams, responses: { 200: portfolioCardDetailSchema }, errors: [404] }, 'GET') }, async (request): Promise<PortfolioCardDetail> => {
    const owner = ownerOfRequest(request);
    const card = await cardOf(owner, cardIdParam(request));
    return { ...card, priceHistory: await portfolioPriceHistory(db, card.id) };
  });

  /** PATCH (inline edit: what changed) and PUT (detail edit: the detail page's fields) differ only in what they read. */
  async function edit(request: FastifyRequest, read: (body: unknown) => ReturnType<typeof patchChanges>): Promise<PortfolioCard> {
    const owner = ownerOfRequest(request);
    const cardId = cardIdParam(request);
    const { changes, price } = read(request.body ?? {});
    await editPortfolioCard({ store, metadata: commandMetadata(request, clock, ids) }, { cardId, requestedBy: owner, changes, price });
    return cardOf(owner, cardId);
  }
  app.patch('/api/portfolio/:id', { schema: routeDocs({ summary: 'Edit some fields of a portfolio card (inline edit)', tags: ['portfolio'], params: portfolioIdParams, body: patchPortfolioCardSchema, responses: { 200: portfolioCardSchema }, errors: [400, 404] }, 'PATCH') }, (request) => edit(request, (body) => patchChanges(patchPortfolioCardSchema.parse(body))));
  app.put('/api/portfolio/:id', { schema: routeDocs({ summary: "Edit a portfolio card's details", tags: ['portfolio'], params: portfolioIdParams, body: putPortfolioCardSchema, responses: { 200: portfolioCardSchema }, errors: [400, 404] }, 'PUT') }, (request) => edit(request, (body) => putChanges(putPortfolioCardSchema.parse(body))));

  app.delete('/api/portfolio/:id', { schema: routeDocs({ summary: 'Remove a portfolio card', tags: ['portfolio'], params: portfolioIdParams, responses: { 200: messageResponseSchema }, errors: [404] }, 'DELETE') }, async (request) => {
    const owner = ownerOfRequest(request);
    await removePortfolioCard({ store, metadata: commandMetadata(request, clock, ids) }, { cardId: cardIdParam(request), requestedBy: owner });
    return { message: 'Card Deleted' };
  });
};
