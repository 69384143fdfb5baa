import { describe, it } from 'vitest';
import { addressBookDecider, type AddressBookEvent, type AddressFieldsData } from '../../src/domain/addresses/index.ts';
import { orderDecider, orderNumberDecider, type OrderEvent, type OrderPlaced, type PaymentAuthorized } from '../../src/domain/orders/index.ts';
import { specify } from '../accounts/decider-spec.ts';

const fields: AddressFieldsData = {
  fullName: 'Ada Lovelace',
  addressLine1: '1 Analytical Way',
  addressLine2: null,
  city: 'Springfield',
  state: 'IL',
  zipCode: '62701',
  country: 'United States',
  phoneNumber: null,
};
const added = (addressId: string, at = 'T1'): AddressBookEvent => ({ type: 'AddressAdded', data: { userId: 'u1', addressId, fields, agsAddressId: null, at } });
const defaulted = (addressId: string, previousDefaultId: string | null, at = 'T1'): AddressBookEvent => ({
  type: 'DefaultAddressSet',
  data: { userId: 'u1', addressId, previousDefaultId, at },
});

describe('address book', () => {
  const given = specify(addressBookDecider);
  const add = (addressId: string, makeDefault = false) => ({ type: 'AddAddress' as const, data: { userId: 'u1', addressId, fields, makeDefault, agsAddressId: null, at: 'T1' } });

  it('makes the first address the default', () => {
    given([]).when(add('a1')).then([added('a1'), defaulted('a1', null)]);
  });

  it('adds a second address without moving the default, unless asked', () => {
    given([added('a1'), defaulted('a1', null)]).when(add('a2')).then([added('a2')]);
    given([added('a1'), defaulted('a1', null)]).when(add('a2', true)).then([added('a2'), defaulted('a2', 'a1')]);
  });

  it('ignores the same add retried', () => {
    given([added('a1'), defaulted('a1', null)]).when(add('a1')).then([]);
  });

  it('edits an address, and records nothing when nothing changed', () => {
    const changed = { ...fields, city: 'Chicago' };
    given([added('a1'), defaulted('a1', null)])
      .when({ type: 'EditAddress', data: { userId: 'u1', addressId: 'a1', fields: changed, makeDefault: false, at: 'T2' } })
      .then([{ type: 'AddressEdited', data: { userId: 'u1', addressId: 'a1', fields: changed, at: 'T2' } }]);
    given([added('a1'), defaulted('a1', null)])
      .when({ type: 'EditAddress', data: { userId: 'u1', addressId: 'a1', fields, makeDefault: false, at: 'T2' } })
      .then([]);
  });

  it('moves the default, and setting the default again changes nothing', () => {
    const book = [added('a1'), defaulted('a1', null), added('a2')];
    given(book).when({ type: 'SetDefaultAddress', data: { userId: 'u1', addressId: 'a2', at: 'T2' } }).then([defaulted('a2', 'a1', 'T2')]);
    given(book).when({ type: 'SetDefaultAddress', data: { userId: 'u1', addressId: 'a1', at: 'T2' } }).then([]);
  });

  it('promotes the oldest remaining address when the default is removed', () => {
    given([added('a1'), defaulted('a1', null), added('a2'), added('a3')])
      .when({ type: 'RemoveAddress', data: { userId: 'u1', addressId: 'a1', at: 'T2' } })
      .then([
        { type: 'AddressRemoved', data: { userId: 'u1', addressId: 'a1', at: 'T2' } },
        { type: 'DefaultAddressSet', data: { userId: 'u1', addressId: 'a2', previousDefaultId: null, at: 'T2' } },
      ]);
  });

  it('removes the last address, leaving no default; a retried remove succeeds', () => {
    const removed: AddressBookEvent = { type: 'AddressRemoved', data: { userId: 'u1', addressId: 'a1', at: 'T2' } };
    given([added('a1'), defaulted('a1', null)]).when({ type: 'RemoveAddress', data: { userId: 'u1', addressId: 'a1', at: 'T2' } }).then([removed]);
    given([added('a1'), defaulted('a1', null), removed]).when({ type: 'RemoveAddress', data: { userId: 'u1', addressId: 'a1', at: 'T3' } }).then([]);
    // A new first address becomes the default again.
    given([added('a1'), defaulted('a1', null), removed]).when(add('a2')).then([added('a2'), defaulted('a2', null)]);
  });

  it('does not know addresses outside the book', () => {
    given([added('a1'), defaulted('a1', null)]).when({ type: 'SetDefaultAddress', data: { userId: 'u1', addressId: 'zz', at: 'T2' } }).thenRefuses('address_not_found');
    given([]).when({ type: 'RemoveAddress', data: { userId: 'u1', addressId: 'zz', at: 'T2' } }).thenRefuses('address_not_found');
    given([]).when({ type: 'EditAddress', data: { userId: 'u1', addressId: 'zz', fields, makeDefault: true, at: 'T2' } }).thenRefuses('address_not_found');
  });
});

const payment = { authorizationId: 'auth_1', processor: 'test-mode', brand: 'Visa', last4: '4242', amountCents: 4124 };
const paid: PaymentAuthorized = { type: 'PaymentAuthorized', data: { orderId: 'o1', userId: 'u1', cardId: 'c1', payment, at: 'T1' } };
const order: Omit<OrderPlaced['data'], 'payment'> = {
  orderId: 'o1',
  userId: 'u1',
  orderNumber: '123456',
  serviceLevel: { code: 'standard', name: 'Standard' },
  card: { cardGradeId: 'c1', cardName: 'Pikachu', cardSet: null, cardNumber: null, cardYear: null, imageUrl: null, declaredValueCents: 0 },
  shippingAddressId: 'a1',
  shippingAddress: { ...fields },
  options: { cardCleaning: false, subgradesReport: true, heightMap: false, requireSignature: true, customShippingBox: false, slabCards: true, shippingInsurance: false },
  figures: { totalDeclaredValue: 0, serviceFee: 2900, shippingFee: 499, insuranceFee: 0, additionalFees: 725, discounts: 0, totalAmount: 4124 },
  notes: null,
  placedAt: 'T2',
};
const placed: OrderEvent = { type: 'OrderPlaced', data: { ...order, payment } };

describe('order', () => {
  const given = specify(orderDecider);

  it('records a payment, and the same authorisation again changes nothing', () => {
    given([]).when({ type: 'AuthorizePayment', data: paid.data }).then([paid]);
    given([paid]).when({ type: 'AuthorizePayment', data: paid.data }).then([]);
  });

  it('places a paid order once: placing it again changes nothing', () => {
    given([paid]).when({ type: 'PlaceOrder', data: order }).then([placed]);
    given([paid, placed]).when({ type: 'PlaceOrder', data: { ...order, orderNumber: '654321' } }).then([]);
  });

  it('refuses an unpaid order, a payment for another total or card, and a payment after placing', () => {
    given([]).when({ type: 'PlaceOrder', data: order }).thenRefuses('payment_required');
    given([paid]).when({ type: 'PlaceOrder', data: { ...order, figures: { ...order.figures, totalAmount: 4125 } } }).thenRefuses('payment_amount_changed');
    given([paid]).when({ type: 'PlaceOrder', data: { ...order, card: { ...order.card, cardGradeId: 'c2' } } }).thenRefuses('payment_required');
    given([paid, placed]).when({ type: 'AuthorizePayment', data: { ...paid.data, payment: { ...payment, authorizationId: 'auth_2' } } }).thenRefuses('order_already_placed');
  });

  it("refuses another user's order as unknown", () => {
    given([paid]).when({ type: 'PlaceOrder', data: { ...order, userId: 'u2' } }).thenRefuses('order_not_found');
    given([paid]).when({ type: 'AuthorizePayment', data: { ...paid.data, userId: 'u2' } }).thenRefuses('order_not_found');
  });
});

describe('order number', () => {
  const given = specify(orderNumberDecider);
  const claim = (orderId: string) => ({ type: 'ClaimOrderNumber' as const, data: { orderNumber: '123456', orderId, at: 'T1' } });
  it('belongs to the first order that claims it', () => {
    given([]).when(claim('o1')).then([{ type: 'OrderNumberClaimed', data: claim('o1').data }]);
    given([{ type: 'OrderNumberClaimed', data: claim('o1').data }]).when(claim('o1')).then([]);
    given([{ type: 'OrderNumberClaimed', data: claim('o1').data }]).when(claim('o2')).thenRefuses('order_number_taken');
  });
});
