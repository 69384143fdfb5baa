import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { messageResponseSchema } from '../../contracts/cards.ts';
import { z } from 'zod';
import { addPortfolioCard } from '../../commands/portfolio/add-portfolio-card.ts';
import { editPortfolioCard, patchChanges, putChanges } from '../../commands/portfolio/edit-portfolio-card.ts';
import { removePortfolioCard } from '../../commands/portfolio/remove-portfolio-card.ts';
import { addPortfolioCardSchema, patchPortfolioCardSchema, portfolioCardDetailSchema, portfolioCardSchema, portfolioValuePointSchema, putPortfolioCardSchema, type PortfolioCard, type PortfolioCardDetail } from '../../contracts/portfolio.ts';
import type { Owner } from '../../domain/accounts/identity.ts';
import { portfolioCardNotFound } from '../../domain/portfolio/index.ts';
import { createPortfolioReader } from '../../projections/portfolio/portfolio-reader.ts';
import { findCard, gradedCardPictures, latestRecordedPrice } from '../../projections/cards/queries.ts';
import { findPortfolioCard, portfolioEntryOf, portfolioPriceHistory, portfolioValueHistory } from '../../projections/portfolio/queries.ts';
import { storePhoto, type CardPhoto } from '../../commands/cards/grade-card.ts';
import { AppError } from '../../contracts/errors.ts';
import { analysisResultSchema, analyzeCardImagesSchema, type AnalysisResult } from '../../contracts/portfolio-analysis.ts';
import { cardIdSchema, cardNotFound, cardPictureHash, cardThumbHash, shownImageHash, type CardImage } from '../../domain/cards/index.ts';
import { analysisOf, portfolioEntryOfGradedCard, type AnalysedPictures } from '../../domain/portfolio/index.ts';
import type { ImageFetcher } from '../../infra/image-fetch/index.ts';
import { imageUrl } from '../../projections/cards/image-urls.ts';
import type { RouteOptions } from '../app.ts';
import { routeDocs } from '../route-docs.ts';
import { commandMetadata, requireUser } from '../plugins/session.ts';
import { sendSnapshot } from '../snapshot-reply.ts';
import { limitGrading, UPLOAD_MAX_BYTES } from './cards.ts';

// The portfolio (SPEC.md §7): list, add, read one, inline edit (PATCH), detail edit (PUT), delete, and beyond SPEC
// the portfolio's value by day. Signed-in users only (SPEC.md §6: the list query runs only when signed in); the
// owner is always the session's user, whatever a body says, and another user's card answers like a missing one.

const MAX_ID = 2_147_483_647;

const portfolioIdParams = z.object({ id: z.string().meta({ description: 'The portfolio card id (a positive integer)' }) });

/**
 * POST /api/analyze-card-images carries both photos as base64 in JSON: two 10 MB photos would be 27 MB, but phone
 * photos are 2 to 5 MB, so 16 MB is room for both and a 20 MB body is refused (413) before it is read.
 */
export const ANALYSIS_BODY_LIMIT = 16 * 1024 * 1024;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** One side: an http(s) URL fetched under grading's address rules, a data: URL, or bare base64. */
async function photoOf(fetcher: ImageFetcher, side: string, label: 'Front' | 'Back'): Promise<CardPhoto> {
  if (/^https?:\/\//i.test(side)) {
    try {
      return { bytes: (await fetcher.fetchImage(side)).bytes, sourceUrl: side };
    } catch (error) {
      if (error instanceof AppError) throw new AppError(error.kind, error.code, `${label} image URL: ${error.message}`, error.details);
      throw error;
    }
  }
  const data = (/^data:[^,]*;base64,/i.test(side) ? side.slice(side.indexOf(',') + 1) : side).replace(/\s+/g, '');
  if (!BASE64.test(data)) {
    throw new AppError('invalid', 'invalid_image_data', `${label} image: send base64 image data, a data: URL, or an http(s) image URL.`);
  }
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length > UPLOAD_MAX_BYTES) throw new AppError('too_large', 'upload_too_large', `The ${label.toLowerCase()} image is larger than 10 MB. Please use a smaller photo.`);
  return { bytes, sourceUrl: null };
}

/** The pictures of a graded card's stored images as the portfolio keeps them: the photos shown, the flattened card. */
export function analysedPictures(front: CardImage, back: CardImage | null): AnalysedPictures {
  return {
    imageUrl: imageUrl(shownImageHash(front)),
    backImageUrl: back ? imageUrl(shownImageHash(back)) : null,
    cardImageUrl: front.cardHash ? imageUrl(cardPictureHash(front)) : null,
    cardThumbUrl: front.cardHash ? imageUrl(cardThumbHash(front)) : null,
    backCardImageUrl: back?.cardHash ? imageUrl(cardPictureHash(back)) : null,
  };
}

export const portfolioRoutes: FastifyPluginAsync<RouteOptions> = async (app, { runtime }) => {
  const { eventStore: store, clock, ids } = runtime;
  const { db } = runtime.database;
  const portfolios = createPortfolioReader(db);

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

  app.get('/api/portfolio', { schema: routeDocs({ summary: "The caller's portfolio", tags: ['portfolio'], responses: { 200: z.array(portfolioCardSchema) } }, 'GET') }, async (request, reply) =>
    sendSnapshot(request, reply, await portfolios.read(ownerOfRequest(request))),
  );

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

  app.post('/api/analyze-card-images', { bodyLimit: ANALYSIS_BODY_LIMIT, schema: routeDocs({ summary: 'Analyse photos of a card (base64, data: URL or image URL) for the portfolio', tags: ['portfolio'], body: analyzeCardImagesSchema, responses: { 200: analysisResultSchema }, errors: [400, 413, 415, 422, 429, 503] }, 'POST') }, async (request, reply): Promise<AnalysisResult> => {
    ownerOfRequest(request);
    // The analysis owns nothing (its photos are stored by their hash, for anyone): no session for it.
    app.sessions.noNewGuestSession(request);
    await limitGrading(runtime.accounts, request, reply);
    const body = analyzeCardImagesSchema.parse(request.body ?? {});
    const [front, back] = await Promise.all([
      photoOf(runtime.imageFetcher, body.frontImage, 'Front'),
      body.backImage ? photoOf(runtime.imageFetcher, body.backImage, 'Back') : null,
    ]);
    const { card, display, pictures } = await runtime.gradePhotos(back ? { front: front.bytes, back: back.bytes } : { front: front.bytes });
    // Stored only once the engine has taken them, so a refused photo leaves nothing behind. The card shows a HEIC's
    // JPEG copy (browsers cannot draw HEIC); the file itself is kept too, and so is the flattened card.
    const [frontImage, backImage] = await Promise.all([
      storePhoto(runtime.imageStore, front, display?.front, pictures?.front),
      back ? storePhoto(runtime.imageStore, back, display?.back, pictures?.back) : null,
    ]);
    return analysisOf(card, analysedPictures(frontImage, backImage));
  });

  // One place for what I own: a card of the caller's collection joins the portfolio as the engine saw it, linked to it.
  // Once: a card already there answers 200 with its entry.
  app.post('/api/card/:id/portfolio', { schema: routeDocs({ summary: "Add a card of the caller's collection to their portfolio, linked to it", tags: ['portfolio'], params: z.object({ id: z.string().meta({ description: 'The collection card id (22 characters)' }) }), responses: { 200: portfolioCardSchema, 201: portfolioCardSchema }, errors: [401, 404, 409] }, 'POST') }, async (request, reply) => {
    const owner = ownerOfRequest(request);
    const parsed = cardIdSchema.safeParse((request.params as { id?: unknown }).id);
    if (!parsed.success) throw cardNotFound();
    const gradedCardId = parsed.data;
    const card = await findCard(db, gradedCardId);
    if (!card || card.owner !== owner) throw cardNotFound();
    if (card.saved_at === null) throw new AppError('conflict', 'card_not_saved', 'Save the card to your collection first, then add it to your portfolio.');
    const existing = await portfolioEntryOf(db, owner, gradedCardId);
    if (existing !== null) return reply.status(200).send(await cardOf(owner, existing));
    const body = portfolioEntryOfGradedCard(card.result, gradedCardPictures(card));
    // The card's price comes with the values by grade recorded beside it, so the entry's price history has them too.
    const recorded = await latestRecordedPrice(db, gradedCardId);
    const graded = recorded?.graded && body.currentPrice != null && recorded.source === body.priceSource ? recorded.graded : undefined;
    const portfolioCardId = await addPortfolioCard({ store, db, metadata: commandMetadata(request, clock, ids) }, { owner, body, gradedCardId, ...(graded ? { graded } : {}) });
    return reply.status(201).send(await cardOf(owner, portfolioCardId));
  });

  app.delete('/api/portfolio/:id', { schema: routeDocs({ summary: 'Remove a portfolio card', tags: ['portfolio'], params: portfolioIdParams, responses: { 200: messageResponseSchema }, errors: [404] }, 'DELETE') }, async (request) => {
    const owner = ownerOfRequest(request);
    await removePortfolioCard({ store, metadata: commandMetadata(request, clock, ids) }, { cardId: cardIdParam(request), requestedBy: owner });
    return { message: 'Card Deleted' };
  });
};
