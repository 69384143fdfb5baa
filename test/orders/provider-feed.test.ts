import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncOrderStatuses } from '../../src/commands/orders/sync-order-statuses.ts';
import { orderViewSchema, type OrderView } from '../../src/contracts/orders.ts';
import { professionalGradeHistorySchema } from '../../src/contracts/professional-grades.ts';
import { httpOrderStatusFeed } from '../../src/infra/provider/order-status-feed.ts';
import { routeDatabaseKind } from '../support/database.ts';
import { startGradingProviderFake, type GradingProviderFake } from '../support/grading-provider-server.ts';
import { samplePhoto, startCardsApp, type Browser, type CardsHarness } from '../http/cards-harness.ts';

// Issue 33: orders at an external grading provider move on through the provider port: the app reads the provider's
// order status feed (a real HTTP server on loopback here, in its wire format) every ORDER_STATUS_POLL_MS and moves each
// order as the operator command does for the built-in provider; reaching graded records the card's professional grade.

const TOKEN = 'feed-token-0123456789';

describe.each([await routeDatabaseKind()])('orders moved by the provider\'s status feed on %s', (kind) => {
  let h: CardsHarness;
  let fake: GradingProviderFake;
  let owner: Browser;
  let cardId: string;
  let order: OrderView;

  beforeAll(async () => {
    fake = await startGradingProviderFake(TOKEN);
    h = await startCardsApp(kind, { ORDER_STATUS_FEED_URL: fake.url, ORDER_STATUS_FEED_TOKEN: TOKEN, ORDER_STATUS_POLL_MS: '200' });
    ({ browser: owner } = await h.registered());
    cardId = (await owner.grade([['frontImage', { bytes: await samplePhoto(1) }]])).json().id as string;
    const addressId = (await owner.post('/api/shipping-addresses', { fullName: 'Ada Lovelace', addressLine1: '12 Analytical Way', city: 'Springfield', state: 'IL', zipCode: '62701', country: 'United States', phoneNumber: '5551234567', isDefault: false })).json().id as string;
    const selection = { serviceLevel: 'standard', cardCleaning: false, subgradesReport: false, heightMap: false, customShippingBox: false, slabCards: false, requireSignature: false, shippingInsurance: false, totalDeclaredValue: '100.00' };
    const wizardId = crypto.randomUUID();
    const paid = await owner.post('/api/orders/payment', { wizardId, cardId, selection, payment: { cardNumber: '4242424242424242', cardName: 'Ada Lovelace', expiryMonth: '12', expiryYear: String(new Date().getUTCFullYear() + 2), cvv: '737' } });
    expect(paid.statusCode).toBe(200);
    order = orderViewSchema.parse((await owner.post('/api/orders', { wizardId, cardId, selection, shippingAddressId: addressId })).json());
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  const seen = async () => orderViewSchema.parse((await owner.get(`/api/orders/${order.id}`)).json());

  it('applies the feed\'s updates at the provider\'s times; graded records the card\'s grade; each once', async () => {
    expect(order.timeline.map((t) => t.status)).toEqual(['submitted']);
    fake.publish(
      { reference: order.id, status: 'received', at: '2026-11-20T10:00:00.000Z', grades: [] },
      // Not one of ours: passed over, the rest applied.
      { reference: 'no-such-order', status: 'received', at: '2026-11-20T11:00:00.000Z', grades: [] },
      { reference: order.id, status: 'grading', at: '2026-11-21T09:30:00.000Z', grades: [] },
      { reference: order.id, status: 'graded', at: '2026-11-24T16:00:00.000Z', grades: [{ card_id: cardId, company: 'PSA', grade: 9, cert: '70001234' }] },
    );
    await expect.poll(async () => (await seen()).status, { timeout: 20_000, interval: 100 }).toBe('graded');
    const graded = await seen();
    expect(graded.timeline.map((t) => [t.status, t.at])).toEqual([
      ['submitted', order.timeline[0]!.at],
      ['received', '2026-11-20T10:00:00.000Z'],
      ['grading', '2026-11-21T09:30:00.000Z'],
      ['graded', '2026-11-24T16:00:00.000Z'],
    ]);
    // The grade goes on the card's own stream just after the order's: read it once it is there.
    const reported = async () => professionalGradeHistorySchema.parse((await owner.get(`/api/card/${cardId}/professional-grade`)).json());
    await expect.poll(async () => (await reported()).reports.length, { timeout: 10_000, interval: 100 }).toBe(1);
    const history = await reported();
    expect(history.current).toMatchObject({ company: 'PSA', grade: 9, cert: '70001234', source: 'order', verified: false });

    fake.publish({ reference: order.id, status: 'shipped', at: '2026-11-25T08:00:00.000Z', grades: [] }, { reference: order.id, status: 'delivered', at: '2026-11-27T12:00:00.000Z', grades: [] });
    await expect.poll(async () => (await seen()).status, { timeout: 20_000, interval: 100 }).toBe('delivered');
    // More reads go by: nothing is applied twice, and the feed is read on from where it was (pages of two).
    const reads = fake.reads;
    await expect.poll(() => fake.reads, { timeout: 10_000, interval: 100 }).toBeGreaterThan(reads + 2);
    const { events } = await h.runtime.eventStore.readStream(`order-${order.id}`);
    expect(events.filter((e) => e.type === 'OrderStatusChanged')).toHaveLength(5);
    expect((await owner.get(`/api/card/${cardId}/professional-grade`)).json().reports).toHaveLength(1);
    expect(fake.afters.slice(0, 3)).toEqual([null, ...fake.afters.slice(1, 3).map(() => expect.stringMatching(/^\d+$/))]);
    expect(fake.afters.at(-1)).toBe('6');
    const cursor = await h.database.db.selectFrom('provider_feed_cursors').select('cursor').where('feed', '=', 'order-status:http').executeTakeFirstOrThrow();
    expect(cursor.cursor).toBe('6');
    expect(fake.refused).toBe(0);
  });

  it('a feed that refuses the token or answers out of its format is a failed read that moves nothing', async () => {
    const deps = { db: h.database.db, store: h.runtime.eventStore, clock: h.runtime.clock, ids: h.runtime.ids, logger: { warn: () => undefined, info: () => undefined } };
    await expect(syncOrderStatuses({ ...deps, feed: httpOrderStatusFeed({ url: fake.url, token: 'wrong' }) })).rejects.toThrow('The order status feed answered 401');
    expect(fake.refused).toBe(1);
    const odd = { name: 'http', read: async () => ({ updates: [], cursor: null }) };
    expect(await syncOrderStatuses({ ...deps, feed: odd })).toEqual({ applied: 0, passedOver: 0, gradesReported: 0 });
    await expect(syncOrderStatuses({ ...deps, feed: httpOrderStatusFeed({ url: fake.url.replace('/v1/order-updates', '/nothing-here'), token: TOKEN }) })).rejects.toThrow('answered 404');
    const cursor = await h.database.db.selectFrom('provider_feed_cursors').select('cursor').where('feed', '=', 'order-status:http').executeTakeFirstOrThrow();
    expect(cursor.cursor).toBe('6');
  });
});
