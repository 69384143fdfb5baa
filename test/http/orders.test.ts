import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressesProjection } from '../../src/projections/addresses/addresses-projection.ts';
import { ordersProjection } from '../../src/projections/orders/orders-projection.ts';
import { usersProjection } from '../../src/projections/users/users-projection.ts';
import { rebuildProjection } from '../../src/projections/runner/index.ts';
import { createLogger } from '../../src/runtime.ts';
import { routeDatabaseKind } from '../support/database.ts';
import { startPaymentFake, type PaymentFake } from '../support/payment-processor-server.ts';
import { samplePhoto, startCardsApp, type Browser, type CardsHarness } from './cards-harness.ts';

// Settings, the address book and orders through the real app on both databases, as browsers use them. The payment
// processor is a real HTTP server on loopback speaking a card API's wire format in test mode.

const GOOD_CARD = '4242424242424242';
const DECLINED_CARD = '4000000000000002';
const NO_FUNDS_CARD = '4000000000009995';
const CVV = '737';

const address = (overrides: Record<string, unknown> = {}) => ({
  fullName: 'Ada Lovelace',
  addressLine1: '12 Analytical Way',
  addressLine2: 'Apt 3',
  city: 'Springfield',
  state: 'IL',
  zipCode: '62701',
  country: 'United States',
  phoneNumber: '5551234567',
  isDefault: false,
  ...overrides,
});

const put = (b: Browser, url: string, payload?: object) => b.send({ method: 'PUT', url, ...(payload ? { payload } : {}) });

const selection = { serviceLevel: 'standard', cardCleaning: true, subgradesReport: true, heightMap: false, customShippingBox: false, slabCards: true, requireSignature: true, shippingInsurance: true, totalDeclaredValue: '250.00' };
const payment = (cardNumber: string, overrides: Record<string, unknown> = {}) => ({
  cardNumber,
  cardName: 'Ada Lovelace',
  expiryMonth: '12',
  expiryYear: String(new Date().getUTCFullYear() + 2),
  cvv: CVV,
  ...overrides,
});

describe.each([await routeDatabaseKind()])('settings, addresses and orders on %s', (kind) => {
  let h: CardsHarness;
  let fake: PaymentFake;
  const logLines: string[] = [];

  beforeAll(async () => {
    fake = await startPaymentFake('sk_test_orders');
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    h = await startCardsApp(kind, { PAYMENT_PROCESSOR_URL: fake.url, PAYMENT_PROCESSOR_KEY: 'sk_test_orders' }, { logger: createLogger({ LOG_LEVEL: 'trace' }, sink) });
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  async function gradedCard(b: Browser): Promise<string> {
    const response = await b.grade([['frontImage', { bytes: await samplePhoto(1) }]]);
    expect(response.statusCode).toBe(200);
    return response.json().id as string;
  }

  describe('settings', () => {
    it('shows the account and changes the marketing preference', async () => {
      const { browser, user } = await h.registered();
      const settings = (await browser.get('/api/account/settings')).json();
      expect(settings).toMatchObject({ username: user.username, provider: { name: 'built-in', managedHere: true }, is_marketing_notifications_enabled: false });
      const changed = await put(browser, '/api/account/marketing', { is_marketing_notifications_enabled: true });
      expect(changed.statusCode).toBe(200);
      expect(changed.json().is_marketing_notifications_enabled).toBe(true);
      expect((await browser.get('/api/agscard/profile')).json().is_marketing_notifications_enabled).toBe(true);
      expect((await put(browser, '/api/account/marketing', { is_marketing_notifications_enabled: 'yes' })).statusCode).toBe(400);
      expect((await put(h.browser(), '/api/account/marketing', { is_marketing_notifications_enabled: true })).statusCode).toBe(401);
    });

    it('changes the password with the current one, and signs out every other session', async () => {
      const { browser, user } = await h.registered();
      const email = (await browser.get('/api/user')).json().email as string;
      const other = h.browser();
      expect((await other.post('/api/agscard/login', { email, password: 'Secret123' })).statusCode).toBe(200);
      expect((await other.get('/api/user')).statusCode).toBe(200);

      const wrong = await browser.post('/api/account/password', { current_password: 'Nope12345', password: 'Better456', password_confirmation: 'Better456' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().code).toBe('wrong_current_password');
      const weak = await browser.post('/api/account/password', { current_password: 'Secret123', password: 'lowercase', password_confirmation: 'lowercase' });
      expect(weak.json().error).toMatch('Password must contain at least one uppercase and one lowercase letter');
      const mismatch = await browser.post('/api/account/password', { current_password: 'Secret123', password: 'Better456', password_confirmation: 'Better457' });
      expect(mismatch.json().error).toMatch('Passwords do not match');

      const before = browser.jar.sid;
      const changed = await browser.post('/api/account/password', { current_password: 'Secret123', password: 'Better456', password_confirmation: 'Better456' });
      expect(changed.statusCode).toBe(200);
      expect(changed.json().signedOutSessions).toBeGreaterThanOrEqual(2); // the other browser's and this one's old session
      expect(browser.jar.sid).not.toBe(before);
      expect((await browser.get('/api/user')).json().id).toBe(user.id);
      expect((await other.get('/api/user')).statusCode).toBe(401);
      expect((await h.browser().post('/api/agscard/login', { email, password: 'Secret123' })).statusCode).toBe(401);
      expect((await h.browser().post('/api/agscard/login', { email, password: 'Better456' })).statusCode).toBe(200);
      // The new hash is on the user's stream, never the password.
      const rows = await sql<{ data: string }>`select data::text as data from es_events where event_type = 'PasswordChanged'`.execute(h.database.db);
      expect(rows.rows.some((r) => r.data.includes('Better456'))).toBe(false);
    });

    it('signs out of all devices', async () => {
      const { browser } = await h.registered();
      const email = (await browser.get('/api/user')).json().email as string;
      const other = h.browser();
      await other.post('/api/agscard/login', { email, password: 'Secret123' });
      const response = await browser.post('/api/account/sign-out-everywhere');
      expect(response.statusCode).toBe(200);
      expect((await browser.get('/api/user')).statusCode).toBe(401);
      expect((await other.get('/api/user')).statusCode).toBe(401);
    });
  });

  describe('address book', () => {
    it('adds, edits, moves the default, removes, and always keeps one default', async () => {
      const { browser } = await h.registered();
      expect((await browser.get('/api/shipping-addresses')).json()).toEqual([]);
      const first = await browser.post('/api/shipping-addresses', address());
      expect(first.statusCode).toBe(201);
      expect(first.json()).toMatchObject({ fullName: 'Ada Lovelace', isDefault: true, agsAddressId: null, country: 'United States' });
      const second = (await browser.post('/api/shipping-addresses', address({ fullName: 'Bob Babbage', country: 'Canada', state: 'on', zipCode: 'k1a0b1' }))).json();
      expect(second).toMatchObject({ isDefault: false, state: 'ON', zipCode: 'K1A 0B1' });

      const moved = await put(browser, `/api/shipping-addresses/${second.id}/set-default`);
      expect(moved.json().isDefault).toBe(true);
      let book = (await browser.get('/api/shipping-addresses')).json() as { id: string; isDefault: boolean; city: string }[];
      expect(book.map((a) => [a.id, a.isDefault])).toEqual([
        [second.id, true],
        [first.json().id, false],
      ]);

      const edited = await put(browser, `/api/shipping-addresses/${first.json().id}`, address({ city: 'Chicago' }));
      expect(edited.json()).toMatchObject({ city: 'Chicago', isDefault: false });

      expect((await browser.delete(`/api/shipping-addresses/${second.id}`)).statusCode).toBe(200);
      book = (await browser.get('/api/shipping-addresses')).json();
      expect(book).toHaveLength(1);
      expect(book[0]).toMatchObject({ id: first.json().id, isDefault: true });
      // Deleting again succeeds (a retry).
      expect((await browser.delete(`/api/shipping-addresses/${second.id}`)).statusCode).toBe(200);
    });

    it('refuses what a carrier cannot deliver to', async () => {
      const { browser } = await h.registered();
      const cases: [Record<string, unknown>, string][] = [
        [{ fullName: '' }, 'Full name is required'],
        [{ addressLine1: '   ' }, 'Address line 1 is required'],
        [{ city: '' }, 'City is required'],
        [{ zipCode: '1234' }, 'ZIP code must be 12345 or 12345-6789'],
        [{ zipCode: '12345-67' }, 'ZIP code must be 12345 or 12345-6789'],
        [{ state: 'ZZ' }, 'Choose a US state'],
        [{ country: 'Canada', state: 'IL', zipCode: 'K1A 0B1' }, 'Choose a Canadian province or territory'],
        [{ country: 'Canada', state: 'ON', zipCode: '62701' }, 'Postal code must look like A1A 1A1'],
        [{ country: 'Mexico' }, 'Country must be United States or Canada'],
        [{ fullName: 'Ada\u0000Lovelace' }, 'control character'],
      ];
      for (const [overrides, message] of cases) {
        const response = await browser.post('/api/shipping-addresses', address(overrides));
        expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
        expect(response.json().error).toContain(message);
      }
      expect((await browser.post('/api/shipping-addresses', address({ zipCode: '62701-1234' }))).statusCode).toBe(201);
      expect((await browser.get('/api/shipping-addresses')).json()).toHaveLength(1);
    });

    it("answers another user's address like a missing one, and sends a guest to sign in", async () => {
      const { browser: owner } = await h.registered();
      const { browser: stranger } = await h.registered();
      const id = (await owner.post('/api/shipping-addresses', address())).json().id as string;
      for (const response of [
        await put(stranger, `/api/shipping-addresses/${id}`, address({ city: 'Stolen' })),
        await put(stranger, `/api/shipping-addresses/${id}/set-default`),
        await stranger.delete(`/api/shipping-addresses/${id}`),
        await put(stranger, '/api/shipping-addresses/00000000-0000-4000-8000-000000000000', address()),
        await stranger.delete('/api/shipping-addresses/not-a-uuid'),
      ]) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ error: 'Address not found', code: 'address_not_found' });
      }
      expect((await stranger.get('/api/shipping-addresses')).json()).toEqual([]);
      expect((await owner.get('/api/shipping-addresses')).json()[0].city).toBe('Springfield');
      const guest = h.browser();
      expect((await guest.get('/api/shipping-addresses')).statusCode).toBe(401);
      expect((await guest.post('/api/shipping-addresses', address())).statusCode).toBe(401);
    });

    it('sync says the built-in provider has nothing to sync', async () => {
      const { browser } = await h.registered();
      const response = await browser.post('/api/sync-ags-addresses');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ synced: 0, message: expect.stringContaining('Nothing to sync') });
    });
  });

  describe('orders', () => {
    it('lists the seven service levels and quotes on the server', async () => {
      const levels = (await h.browser().get('/api/service-levels')).json() as { code: string; base_price: string; max_declared_value: number }[];
      expect(levels.map((l) => `${l.code} ${l.base_price} ${l.max_declared_value}`)).toEqual([
        'budget 10.00 500',
        'economy 19.00 1000',
        'standard 29.00 2500',
        'priority 45.00 10000',
        'express 65.00 25000',
        'super 85.00 100000',
        'ultra 175.00 1000000',
      ]);
      const quote = (await h.browser().post('/api/orders/quote', { selection: { ...selection, totalAmount: '0.01' } })).json();
      // 29.00 + cleaning 3.00 + subgrades 2.00 + slab 0.25 + signature 5.00 + shipping 4.99 + insurance 2% of 250 = 5.00
      expect(quote.totalAmount).toBe('49.24');
      expect(quote.lines.map((l: { code: string }) => l.code)).toEqual(['service', 'cardCleaning', 'subgradesReport', 'slabCards', 'signature', 'shipping', 'insurance']);
    });

    it('a new authorisation for the same order voids the one it replaces at the processor: one hold at a time', async () => {
      const { browser } = await h.registered();
      const cardId = await gradedCard(browser);
      const addressId = (await browser.post('/api/shipping-addresses', address())).json().id as string;
      const wizardId = crypto.randomUUID();
      const pay = (s: typeof selection, cardNumber = GOOD_CARD) => browser.post('/api/orders/payment', { wizardId, cardId, selection: s, payment: payment(cardNumber) });
      const heldBefore = fake.held().length;
      const voidedBefore = fake.voided.length;

      expect((await pay(selection)).statusCode).toBe(200);
      expect(fake.held().length).toBe(heldBefore + 1);
      // The total changes (height map added): a new authorisation, and the first is voided.
      const changed = { ...selection, heightMap: true };
      expect((await pay(changed)).statusCode).toBe(200);
      expect(fake.voided.length).toBe(voidedBefore + 1);
      expect(fake.held().length).toBe(heldBefore + 1);
      // Another card for the same total: the same again. A retry of the same payment voids nothing.
      expect((await pay(changed, '5555555555554444')).statusCode).toBe(200);
      expect((await pay(changed, '5555555555554444')).statusCode).toBe(200);
      expect(fake.voided.length).toBe(voidedBefore + 2);
      expect(fake.held().length).toBe(heldBefore + 1);

      const placed = await browser.post('/api/orders', { wizardId, cardId, selection: changed, shippingAddressId: addressId });
      expect(placed.statusCode).toBe(201);
      expect(placed.json().paymentLast4).toBe('4444');
    });

    it('declines test cards with clear messages, then pays and places one order for any number of submits', async () => {
      const { browser, user } = await h.registered();
      const cardId = await gradedCard(browser);
      const addressId = (await browser.post('/api/shipping-addresses', address())).json().id as string;
      const wizardId = crypto.randomUUID();
      const pay = (cardNumber: string, overrides: Record<string, unknown> = {}) =>
        browser.post('/api/orders/payment', { wizardId, cardId, selection, payment: payment(cardNumber, overrides) });

      const refusals: [string, Record<string, unknown>, number, string][] = [
        [DECLINED_CARD, {}, 422, 'Your card was declined.'],
        [NO_FUNDS_CARD, {}, 422, 'Your card has insufficient funds.'],
        [GOOD_CARD, { expiryYear: String(new Date().getUTCFullYear() - 1) }, 422, 'Your card has expired.'],
        ['4242424242424241', {}, 400, 'Card number is not valid'],
        ['4242', {}, 400, 'Card number must be at least 16 digits'],
        [GOOD_CARD, { cvv: '12' }, 400, 'CVV must be at least 3 digits'],
      ];
      for (const [number, overrides, status, message] of refusals) {
        const response = await pay(number, overrides);
        expect(response.statusCode, number).toBe(status);
        expect(response.json().error).toContain(message);
      }
      // Unpaid: the order is refused.
      const unpaid = await browser.post('/api/orders', { wizardId, cardId, selection, shippingAddressId: addressId });
      expect(unpaid.statusCode).toBe(400);
      expect(unpaid.json().error).toBe('Payment information required');

      const paid = await pay(GOOD_CARD);
      expect(paid.statusCode).toBe(200);
      expect(paid.json()).toEqual({ status: 'authorized', brand: 'Visa', last4: '4242', amount: '49.24', amountCents: 4924 });
      // Paying again (a retry) is the same authorisation at the processor.
      const authorizations = fake.authorizations;
      expect((await pay(GOOD_CARD)).statusCode).toBe(200);
      expect(fake.authorizations).toBe(authorizations);

      // A changed selection after payment must be paid again; the new authorisation replaces the old one, which is
      // voided at the processor (issue 34: holds piled up on the card).
      const changed = await browser.post('/api/orders', { wizardId, cardId, selection: { ...selection, heightMap: true }, shippingAddressId: addressId });
      expect(changed.statusCode).toBe(409);
      expect(changed.json().code).toBe('payment_amount_changed');

      const body = { wizardId, cardId, selection: { ...selection, totalAmount: '0.01' }, shippingAddressId: addressId, notes: 'Handle with care' };
      const started = performance.now();
      const submits = await Promise.all([browser.post('/api/orders', body), browser.post('/api/orders', body), browser.post('/api/orders', body)]);
      const elapsed = performance.now() - started;
      const orders = submits.map((r) => r.json());
      expect(submits.map((r) => r.statusCode).sort()).toEqual([200, 200, 201]);
      expect(new Set(orders.map((o) => o.orderNumber)).size).toBe(1);
      const order = orders[0];
      expect(order.orderNumber).toMatch(/^\d{6}$/);
      expect(order).toMatchObject({
        status: 'submitted',
        serviceLevel: 'standard',
        totalAmount: '49.24',
        paidAmount: '49.24',
        insuranceFee: '5.00',
        additionalFees: '10.25',
        totalDeclaredValue: '250.00',
        paymentBrand: 'Visa',
        paymentLast4: '4242',
        notes: 'Handle with care',
        card: { id: cardId },
        shippingAddress: { fullName: 'Ada Lovelace', city: 'Springfield' },
      });
      console.info(`[figures] three concurrent submits of one order answered in ${elapsed.toFixed(0)} ms`);
      const again = await browser.post('/api/orders', body);
      expect(again.json().orderNumber).toBe(order.orderNumber);

      const history = (await browser.get('/api/orders')).json();
      expect(history).toHaveLength(1);
      expect((await browser.get(`/api/orders/${order.id}`)).json().orderNumber).toBe(order.orderNumber);
      const counts = await sql<{ n: string }>`select count(*) as n from submission_orders where user_id = ${user.id}`.execute(h.database.db);
      expect(Number(counts.rows[0]!.n)).toBe(1);
      const cards = await sql<{ n: string }>`select count(*) as n from submission_cards where submission_id = ${order.id}`.execute(h.database.db);
      expect(Number(cards.rows[0]!.n)).toBe(1);
      // Placed: no new payment.
      expect((await pay(GOOD_CARD)).json().code).toBe('order_already_placed');

      // No card number or CVV anywhere: events, read models, logs.
      const everywhere = [
        ...(await sql<{ t: string }>`select data::text || metadata::text as t from es_events`.execute(h.database.db)).rows.map((r) => r.t),
        ...(await sql<{ t: string }>`select row_to_json(o)::text as t from submission_orders o`.execute(h.database.db)).rows.map((r) => r.t),
        ...(await sql<{ t: string }>`select row_to_json(c)::text as t from submission_cards c`.execute(h.database.db)).rows.map((r) => r.t),
        ...logLines,
      ].join('\n');
      expect(logLines.length).toBeGreaterThan(10);
      for (const digits of [GOOD_CARD, DECLINED_CARD, NO_FUNDS_CARD, '424242424242', `"${CVV}"`, `cvv":"${CVV}`]) expect(everywhere).not.toContain(digits);
    });

    it("refuses another user's card, address and order, and sends a guest to sign in", async () => {
      const { browser: owner } = await h.registered();
      const { browser: stranger } = await h.registered();
      const ownersCard = await gradedCard(owner);
      const ownersAddress = (await owner.post('/api/shipping-addresses', address())).json().id as string;
      const strangersAddress = (await stranger.post('/api/shipping-addresses', address())).json().id as string;
      const strangersCard = await gradedCard(stranger);

      expect((await stranger.get(`/api/submit-card/${ownersCard}`)).statusCode).toBe(404);
      expect((await owner.get(`/api/submit-card/${ownersCard}`)).json()).toMatchObject({ id: ownersCard });
      const wizardId = crypto.randomUUID();
      const payForeign = await stranger.post('/api/orders/payment', { wizardId, cardId: ownersCard, selection, payment: payment(GOOD_CARD) });
      expect(payForeign.statusCode).toBe(404);
      expect(payForeign.json().code).toBe('card_not_found');

      expect((await stranger.post('/api/orders/payment', { wizardId, cardId: strangersCard, selection, payment: payment(GOOD_CARD) })).statusCode).toBe(200);
      const foreignAddress = await stranger.post('/api/orders', { wizardId, cardId: strangersCard, selection, shippingAddressId: ownersAddress });
      expect(foreignAddress.statusCode).toBe(404);
      expect(foreignAddress.json().code).toBe('address_not_found');
      const placed = (await stranger.post('/api/orders', { wizardId, cardId: strangersCard, selection, shippingAddressId: strangersAddress })).json();
      expect(placed.orderNumber).toMatch(/^\d{6}$/);

      // The same wizard key from another user is another order, unpaid.
      expect((await owner.post('/api/orders', { wizardId, cardId: ownersCard, selection, shippingAddressId: ownersAddress })).json().error).toBe('Payment information required');
      expect((await owner.get(`/api/orders/${placed.id}`)).statusCode).toBe(404);
      expect((await owner.get('/api/orders')).json()).toEqual([]);

      const guest = h.browser();
      for (const response of [
        await guest.get('/api/orders'),
        await guest.get(`/api/submit-card/${ownersCard}`),
        await guest.post('/api/orders/payment', { wizardId, cardId: ownersCard, selection, payment: payment(GOOD_CARD) }),
        await guest.post('/api/orders', { wizardId, cardId: ownersCard, selection, shippingAddressId: ownersAddress }),
      ]) {
        expect(response.statusCode).toBe(401);
      }
    });

    it('rebuilds addresses, orders and users from the log, row for row as they are live', async () => {
      const rows = async () =>
        Promise.all(
          ['shipping_addresses', 'submission_orders', 'submission_cards', 'users'].map(
            async (table) => (await sql<{ t: string }>`select row_to_json(x)::text as t from ${sql.table(table)} x order by 1`.execute(h.database.db)).rows.map((r) => r.t),
          ),
        );
      const live = await rows();
      expect(live[0]!.length).toBeGreaterThan(3);
      expect(live[1]!.length).toBeGreaterThan(1);
      for (const projection of [addressesProjection, ordersProjection, usersProjection]) {
        await rebuildProjection(h.database, h.runtime.eventStore, projection, 'inline');
      }
      expect(await rows()).toEqual(live);
    });

  });
});
