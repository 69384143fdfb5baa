import { createHmac, randomInt } from 'node:crypto';
import { serverSecret } from '../../infra/database/server-secrets.ts';
import type { FastifyPluginAsync } from 'fastify';
import { authorizeOrderPayment, orderIdFor, placeOrder } from '../../commands/orders/orders.ts';
import { AppError } from '../../contracts/errors.ts';
import { z } from 'zod';
import {
  orderSelectionSchema,
  orderViewSchema,
  paymentRequestSchema,
  paymentResultSchema,
  placeOrderSchema,
  quoteSchema,
  serviceLevelSchema,
  submissionCardSchema,
  type OrderSelection,
  type PaymentResult,
  type ServiceLevel,
  type SubmissionCard,
} from '../../contracts/orders.ts';
import { addressNotFound } from '../../domain/addresses/index.ts';
import { cardNotFound, priceFromText } from '../../domain/cards/index.ts';
import { centsOf, dollarsOf, orderNotFound, quoteOrder } from '../../domain/orders/index.ts';
import type { OrderPayload } from '../../infra/provider/types.ts';
import { findAddress } from '../../projections/addresses/queries.ts';
import { findCard, type CardGradeRow } from '../../projections/cards/queries.ts';
import { findOrder, ordersOf } from '../../projections/orders/queries.ts';
import { hitCallerLimits } from '../caller-limits.ts';
import { routeDocs } from '../route-docs.ts';
import type { RouteOptions } from '../app.ts';
import { commandMetadata, requireUser } from '../plugins/session.ts';

// Service levels, the quote, payment and orders (SPEC.md §2 Submission wizard, DESIGN.md §8). Every figure comes
// from one quote computed here; a total sent by a client is never read. A card, address or order that is not the
// caller's own is answered like a missing one.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const ordersRoutes: FastifyPluginAsync<RouteOptions> = async (app, { runtime }) => {
  const { eventStore: store, database, clock, ids, accounts, payments } = runtime;
  const { db } = database;
  const { provider } = accounts;

  /** Only the caller's own graded card can be sent for grading. */
  async function ownCard(userId: string, cardId: string): Promise<CardGradeRow> {
    const row = await findCard(db, cardId);
    if (!row || row.user_id !== userId) throw cardNotFound();
    return row;
  }

  /** Tells card attempts apart for the processor's idempotency key without the number being guessable from it. */
  let fingerprintKey: Promise<Buffer> | undefined;
  async function cardFingerprint(number: string, month: string, year: string): Promise<string> {
    fingerprintKey ??= serverSecret(db, 'payment-card-fingerprint').catch((error: unknown) => {
      fingerprintKey = undefined;
      throw error;
    });
    return createHmac('sha256', await fingerprintKey).update(`${number}|${month}|${year}`).digest('hex').slice(0, 32);
  }

  async function quoteFor(selection: OrderSelection) {
    return quoteOrder(selection, await provider.serviceLevels());
  }

  app.get('/api/service-levels', { schema: routeDocs({ summary: 'The service levels the provider grades at', tags: ['orders'], responses: { 200: z.array(serviceLevelSchema) } }) }, async (): Promise<ServiceLevel[]> =>
    (await provider.serviceLevels()).map((level) => ({
      id: level.code,
      code: level.code,
      name: level.name,
      base_price: dollarsOf(level.basePriceCents),
      base_price_cents: level.basePriceCents,
      turnaround_time_min: level.turnaroundMinDays,
      turnaround_time_max: level.turnaroundMaxDays,
      max_declared_value: level.maxDeclaredValue,
    })),
  );

  // The wizard's card: one of the caller's own (a shared link lets anyone see a card, not send it).
  app.get('/api/submit-card/:id', { schema: routeDocs({ summary: "One of the caller's cards, for the order wizard", tags: ['orders'], params: z.object({ id: z.string() }), responses: { 200: submissionCardSchema }, errors: [401, 404] }) }, async (request): Promise<SubmissionCard> => {
    const userId = requireUser(request);
    const cardId = String((request.params as { id?: unknown }).id ?? '');
    const row = await ownCard(userId, cardId);
    const price = priceFromText(row.estimated_value);
    return {
      id: row.id,
      cardName: row.card_name,
      cardSet: row.card_set,
      cardNumber: row.card_number,
      imageUrl: row.image_url,
      cardImageUrl: row.card_image_url,
      overallGrade: row.overall_grade,
      estimatedValue: price === null ? null : dollarsOf(Math.round(price * 100)),
    };
  });

  // A read in a POST (the selection is a body), guests included: it owns nothing, so a cookie-less caller gets no
  // session row, and it is limited per caller like the other calls a guest can make.
  app.post('/api/orders/quote', { schema: routeDocs({ summary: 'Every figure of an order, computed by the server', tags: ['orders'], body: z.object({ selection: orderSelectionSchema }), responses: { 200: quoteSchema }, errors: [400, 429] }, 'POST') }, async (request, reply) => {
    app.sessions.noNewGuestSession(request);
    const wait = await hitCallerLimits(accounts.rateLimiter, 'quote', { user: accounts.limits.quoteUser, guest: accounts.limits.quoteGuest }, request, reply);
    if (wait !== null) throw new AppError('rate_limited', 'quote_rate_limited', `Many quotes were asked for in a short time. Please try again in ${wait}.`);
    return quoteFor(orderSelectionSchema.parse((request.body as { selection?: unknown } | null)?.selection ?? request.body));
  });

  app.post('/api/orders/payment', { schema: routeDocs({ summary: "Authorise the quote's total on a card (test mode by default)", tags: ['orders'], body: paymentRequestSchema, responses: { 200: paymentResultSchema }, errors: [400, 401, 404, 409, 422, 503] }, 'POST') }, async (request): Promise<PaymentResult> => {
    const userId = requireUser(request);
    const input = paymentRequestSchema.parse(request.body);
    const card = await ownCard(userId, input.cardId);
    const quote = await quoteFor(input.selection);
    const payment = await authorizeOrderPayment({ store, metadata: commandMetadata(request, clock, ids) }, payments, {
      orderId: orderIdFor(userId, input.wizardId),
      userId,
      cardId: card.id,
      amountCents: quote.totalCents,
      description: `Grading: ${card.card_name} (${quote.serviceLevel.name})`,
      cardFingerprint: await cardFingerprint(input.payment.cardNumber, input.payment.expiryMonth, input.payment.expiryYear),
      onVoidFailed: (error, authorizationId) => request.log.warn({ err: error, authorizationId }, 'a replaced payment authorisation was not voided: it lapses by itself'),
      card: {
        number: input.payment.cardNumber,
        expMonth: Number(input.payment.expiryMonth),
        expYear: Number(input.payment.expiryYear),
        cvc: input.payment.cvv,
        name: input.payment.cardName,
      },
    });
    return { status: 'authorized', brand: payment.brand, last4: payment.last4, amount: dollarsOf(payment.amountCents), amountCents: payment.amountCents };
  });

  app.post('/api/orders', { schema: routeDocs({ summary: 'Place the order paid for (once per wizard key)', tags: ['orders'], body: placeOrderSchema, responses: { 200: orderViewSchema, 201: orderViewSchema }, errors: [400, 401, 404, 409] }, 'POST') }, async (request, reply) => {
    const userId = requireUser(request);
    const input = placeOrderSchema.parse(request.body);
    const card = await ownCard(userId, input.cardId);
    if (!UUID.test(input.shippingAddressId)) throw addressNotFound();
    const address = await findAddress(db, userId, input.shippingAddressId.toLowerCase());
    if (!address) throw addressNotFound();
    const quote = await quoteFor(input.selection);
    const s = input.selection;
    const orderId = orderIdFor(userId, input.wizardId);
    const placed = await placeOrder({ store, metadata: commandMetadata(request, clock, ids) }, { randomInt: () => randomInt(0, 900_000) }, {
      orderId,
      userId,
      serviceLevel: { code: quote.serviceLevel.code, name: quote.serviceLevel.name },
      card: {
        cardGradeId: card.id,
        cardName: card.card_name,
        cardSet: card.card_set,
        cardNumber: card.card_number,
        cardYear: null,
        imageUrl: card.image_url,
        declaredValueCents: centsOf(quote.totalDeclaredValue),
      },
      shippingAddressId: address.id,
      shippingAddress: {
        fullName: address.fullName,
        addressLine1: address.addressLine1,
        addressLine2: address.addressLine2,
        city: address.city,
        state: address.state,
        zipCode: address.zipCode,
        country: address.country,
        phoneNumber: address.phoneNumber,
      },
      options: {
        cardCleaning: s.cardCleaning,
        subgradesReport: s.subgradesReport,
        heightMap: s.heightMap,
        requireSignature: s.requireSignature,
        customShippingBox: s.customShippingBox,
        slabCards: s.slabCards,
        shippingInsurance: quote.insuranceApplied,
      },
      figures: {
        totalDeclaredValue: centsOf(quote.totalDeclaredValue),
        serviceFee: centsOf(quote.serviceFee),
        shippingFee: centsOf(quote.shippingFee),
        insuranceFee: centsOf(quote.insuranceFee),
        additionalFees: centsOf(quote.additionalFees),
        discounts: centsOf(quote.discounts),
        totalAmount: quote.totalCents,
      },
      notes: input.notes ?? null,
      placedAt: clock.now().toISOString(),
    });
    if (placed.placedNow) {
      // SPEC.md §3's order payload, handed to the provider once the order stands; a provider failure is logged,
      // not shown as a failed order: the order and its payment are recorded.
      const payload: OrderPayload = {
        service_level: quote.serviceLevel.code,
        shipping_address_id: address.id,
        card_cleaning: s.cardCleaning,
        subgrades_report: s.subgradesReport,
        height_map: s.heightMap,
        require_signature: s.requireSignature,
        custom_shipping_box: s.customShippingBox,
        slab_cards: s.slabCards,
        cards: [{ card_name: card.card_name, card_set: card.card_set, card_number: card.card_number, card_year: null, quantity: 1, declared_value: quote.totalDeclaredValue }],
        notes: input.notes ?? null,
        total_declared_value: quote.totalDeclaredValue,
        service_fee: quote.serviceFee,
        shipping_fee: quote.shippingFee,
        insurance_fee: quote.insuranceFee,
        total_amount: quote.totalAmount,
      };
      await provider.submitOrder(userId, payload).catch((error: unknown) => request.log.error({ err: error, orderId }, 'order not handed to the provider'));
    }
    const order = await findOrder(db, userId, placed.orderId);
    if (!order) throw new AppError('unavailable', 'order_not_visible', 'Your order was placed but cannot be shown yet. Please check your orders.');
    return reply.status(placed.placedNow ? 201 : 200).send(order);
  });

  app.get('/api/orders', { schema: routeDocs({ summary: "The caller's orders, newest first", tags: ['orders'], responses: { 200: z.array(orderViewSchema) }, errors: [401] }) }, async (request) => ordersOf(db, requireUser(request)));

  app.get('/api/orders/:id', { schema: routeDocs({ summary: 'One of the caller\'s orders', tags: ['orders'], params: z.object({ id: z.string() }), responses: { 200: orderViewSchema }, errors: [401, 404] }) }, async (request) => {
    const userId = requireUser(request);
    const id = String((request.params as { id?: unknown }).id ?? '');
    if (!/^[0-9a-f]{32}$/.test(id)) throw orderNotFound();
    const order = await findOrder(db, userId, id);
    if (!order) throw orderNotFound();
    return order;
  });
};
