import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOrdersCommand } from '../../scripts/orders.ts';
import { orderViewSchema } from '../../src/contracts/orders.ts';
import { accuracySchema, professionalGradeHistorySchema } from '../../src/contracts/professional-grades.ts';
import { orderDecider, type OrderPlaced, type OrderStatusChanged } from '../../src/domain/orders/index.ts';
import { ordersProjection } from '../../src/projections/orders/orders-projection.ts';
import { professionalGradesProjection } from '../../src/projections/professional-grades/professional-grades-projection.ts';
import { rebuildProjection } from '../../src/projections/runner/index.ts';
import { specify } from '../accounts/decider-spec.ts';
import { routeDatabaseKind } from '../support/database.ts';
import { startPaymentFake, type PaymentFake } from '../support/payment-processor-server.ts';
import { samplePhoto, startCardsApp, type CardsHarness } from '../http/cards-harness.ts';

// Issue 33: an order moves through received, grading, graded, shipped and delivered; the built-in provider hears of it
// from an operator (`npm run orders -- advance`), and reaching graded records the card's professional grade.

const given = specify(orderDecider);
const placed = { type: 'OrderPlaced', data: { orderId: 'o1', userId: 'u1', orderNumber: '123456', card: { cardGradeId: 'card1' } } } as unknown as OrderPlaced;
const moved = (status: OrderStatusChanged['data']['status'], grades: OrderStatusChanged['data']['grades'] = []): OrderStatusChanged => ({ type: 'OrderStatusChanged', data: { orderId: 'o1', userId: 'u1', status, grades, at: '2026-05-01T00:00:00.000Z' } });
const advance = (status: OrderStatusChanged['data']['status'], grades: OrderStatusChanged['data']['grades'] = []) => ({ type: 'AdvanceOrder' as const, data: { orderId: 'o1', status, grades, at: '2026-05-01T00:00:00.000Z' } });
const ags9 = [{ cardId: 'card1', company: 'AGS' as const, grade: 9, cert: '55501234' }];

describe('an order moving on', () => {
  it('forward only, several steps at once allowed, the same status again changes nothing', () => {
    given([placed]).when(advance('received')).then([moved('received')]);
    given([placed, moved('received')]).when(advance('grading')).then([moved('grading')]);
    given([placed, moved('received')]).when(advance('received')).then([]);
    given([placed, moved('grading')]).when(advance('received')).thenRefuses('order_status_backwards');
    given([placed, moved('graded', ags9)]).when(advance('delivered')).then([moved('delivered')]);
    given([]).when(advance('received')).thenRefuses('order_not_found');
  });

  it('graded needs the grade of the order\'s card, on its company\'s scale; other statuses take none', () => {
    given([placed, moved('grading')]).when(advance('graded', ags9)).then([moved('graded', ags9)]);
    given([placed, moved('grading')]).when(advance('graded')).thenRefuses('order_grades_required');
    given([placed, moved('grading')]).when(advance('graded', [{ ...ags9[0]!, cardId: 'other' }])).thenRefuses('order_grades_required');
    given([placed, moved('grading')]).when(advance('graded', [{ ...ags9[0]!, grade: 10.5 }])).thenRefuses('grade_not_on_scale');
    given([placed]).when(advance('received', ags9)).thenRefuses('order_grades_unexpected');
  });
});

describe.each([await routeDatabaseKind()])('orders advanced by the operator on %s', (kind) => {
  let h: CardsHarness;
  let fake: PaymentFake;
  beforeAll(async () => {
    fake = await startPaymentFake('sk_test_progress');
    h = await startCardsApp(kind, { PAYMENT_PROCESSOR_URL: fake.url, PAYMENT_PROCESSOR_KEY: 'sk_test_progress' });
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  it('moves a placed order through every status; graded records the card\'s grade; the timeline and a rebuild agree', async () => {
    const { browser } = await h.registered();
    const cardId = (await browser.grade([['frontImage', { bytes: await samplePhoto(1) }]])).json().id as string;
    const addressId = (await browser.post('/api/shipping-addresses', { fullName: 'Ada Lovelace', addressLine1: '12 Analytical Way', city: 'Springfield', state: 'IL', zipCode: '62701', country: 'United States', phoneNumber: '5551234567', isDefault: false })).json().id as string;
    const selection = { serviceLevel: 'standard', cardCleaning: false, subgradesReport: false, heightMap: false, customShippingBox: false, slabCards: false, requireSignature: false, shippingInsurance: false, totalDeclaredValue: '100.00' };
    const wizardId = crypto.randomUUID();
    const paid = await browser.post('/api/orders/payment', { wizardId, cardId, selection, payment: { cardNumber: '4242424242424242', cardName: 'Ada Lovelace', expiryMonth: '12', expiryYear: String(new Date().getUTCFullYear() + 2), cvv: '737' } });
    expect(paid.statusCode).toBe(200);
    const order = orderViewSchema.parse((await browser.post('/api/orders', { wizardId, cardId, selection, shippingAddressId: addressId })).json());
    expect(order.timeline.map((t) => t.status)).toEqual(['submitted']);

    const lines: string[] = [];
    const context = { database: h.database, store: h.runtime.eventStore, clock: h.runtime.clock, ids: h.runtime.ids, out: (line: string) => lines.push(line) };
    expect(await runOrdersCommand(['advance', order.id, 'received'], context)).toBe(0);
    expect(await runOrdersCommand(['advance', order.id, 'grading'], context)).toBe(0);
    expect(await runOrdersCommand(['advance', order.id, 'received'], context)).toBe(1);
    expect(lines.at(-1)).toBe('The order is already grading; it cannot go back to received.');
    expect(await runOrdersCommand(['advance', order.id, 'graded'], context)).toBe(1);
    expect(await runOrdersCommand(['advance', order.id, 'graded', '--grades', `${cardId}=9.5:55501234`], context)).toBe(0);
    expect(lines.slice(-2)).toEqual([`${order.id}: graded`, '1 professional grade recorded']);
    // Run again (as after a crash between the two writes): nothing new.
    expect(await runOrdersCommand(['advance', order.id, 'graded', '--grades', `${cardId}=9.5:55501234`], context)).toBe(0);
    expect(lines.at(-1)).toBe(`${order.id} is already graded`);
    expect(await runOrdersCommand(['advance', order.id, 'delivered'], context)).toBe(0);
    expect(await runOrdersCommand(['advance', 'no-such-order', 'received'], context)).toBe(1);
    expect(lines.at(-1)).toBe('no order no-such-order');

    const seen = orderViewSchema.parse((await browser.get(`/api/orders/${order.id}`)).json());
    expect(seen.status).toBe('delivered');
    expect(seen.timeline.map((t) => t.status)).toEqual(['submitted', 'received', 'grading', 'graded', 'delivered']);

    const history = professionalGradeHistorySchema.parse((await browser.get(`/api/card/${cardId}/professional-grade`)).json());
    expect(history.reports).toHaveLength(1);
    expect(history.current).toMatchObject({ company: 'AGS', grade: 9.5, cert: '55501234', source: 'order', verified: false });
    const mine = accuracySchema.parse((await browser.get('/api/accuracy/mine')).json());
    expect(mine.overall.unverified.reports).toBe(1);

    const rows = async () =>
      Promise.all(['submission_orders', 'submission_cards', 'professional_grades'].map(async (table) => (await sql<{ t: string }>`select row_to_json(x)::text as t from ${sql.table(table)} x order by 1`.execute(h.database.db)).rows.map((r) => r.t)));
    const live = await rows();
    await rebuildProjection(h.database, h.runtime.eventStore, ordersProjection, 'inline');
    await rebuildProjection(h.database, h.runtime.eventStore, professionalGradesProjection, 'inline');
    expect(await rows()).toEqual(live);
  });
});
