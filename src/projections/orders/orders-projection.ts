import type { OrderTimelineEntry } from '../../contracts/orders.ts';
import { accountErasedSchema } from '../../domain/accounts/events.ts';
import { dollarsOf, orderPlacedSchema, orderStatusChangedSchema } from '../../domain/orders/index.ts';
import { erasePersonalFields } from '../../domain/personal-data.ts';
import { rowProjection } from '../runner/row-projection.ts';
import { rowTable } from '../runner/row-store.ts';

// Inline: the confirmation and the order history show the order the moment it is placed.

/** What an order is once placed: paid and waiting for the card to arrive (SPEC.md's default 'draft' is before). */
export const PLACED_STATUS = 'submitted';

const orders = rowTable('submission_orders', ['id'], [['user_id']]);
const orderCards = rowTable('submission_cards', ['id']);

export const ordersProjection = rowProjection({
  name: 'orders',
  handles: ['OrderPlaced', 'OrderStatusChanged', 'AccountErased'],
  tables: [orders, orderCards],
  async handle(rows, event) {
    if (event.type === 'AccountErased') {
      // Orders stay, for the audit trail, without their person: the contact reads as a rebuild reads it afterwards.
      const { userId } = accountErasedSchema.parse(event.data);
      for (const order of await rows.find(orders, { user_id: userId })) {
        const erased = erasePersonalFields('OrderPlaced', { shippingAddress: shippingAddressOf(order.shipping_address), notes: order.notes });
        await rows.update(orders, { id: order.id }, { shipping_address: JSON.stringify(erased.shippingAddress), notes: erased.notes });
      }
      return;
    }
    if (event.type === 'OrderStatusChanged') {
      const { orderId, status, at } = orderStatusChangedSchema.parse(event.data);
      const order = await rows.get(orders, { id: orderId });
      if (!order) return;
      const history = [...timelineOf(order.status_history), { status, at }];
      await rows.update(orders, { id: orderId }, { status, status_history: JSON.stringify(history), updated_at: at, ...(status === 'delivered' ? { completed_at: at } : {}) });
      await rows.update(orderCards, { id: `${orderId}:1` }, { status });
      return;
    }
    const data = orderPlacedSchema.parse(event.data);
    const f = data.figures;
    await rows.insertIfAbsent(orders, {
      id: data.orderId,
      user_id: data.userId,
      ags_order_id: null,
      order_number: data.orderNumber,
      service_level: data.serviceLevel.code,
      service_level_name: data.serviceLevel.name,
      shipping_address_id: data.shippingAddressId,
      shipping_address: JSON.stringify(data.shippingAddress),
      status: PLACED_STATUS,
      status_history: JSON.stringify([{ status: PLACED_STATUS, at: data.placedAt }]),
      card_cleaning: data.options.cardCleaning,
      subgrades_report: data.options.subgradesReport,
      height_map: data.options.heightMap,
      require_signature: data.options.requireSignature,
      custom_shipping_box: data.options.customShippingBox,
      slab_cards: data.options.slabCards,
      total_declared_value: dollarsOf(f.totalDeclaredValue),
      service_fee: dollarsOf(f.serviceFee),
      shipping_fee: dollarsOf(f.shippingFee),
      insurance_fee: dollarsOf(f.insuranceFee),
      additional_fees: dollarsOf(f.additionalFees),
      discounts: dollarsOf(f.discounts),
      total_amount: dollarsOf(f.totalAmount),
      paid_amount: dollarsOf(data.payment.amountCents),
      payment_brand: data.payment.brand,
      payment_last4: data.payment.last4,
      created_at: data.placedAt,
      updated_at: data.placedAt,
      completed_at: null,
      tracking_number: null,
      shipping_carrier: null,
      notes: data.notes,
    });
    await rows.insertIfAbsent(orderCards, {
      id: `${data.orderId}:1`,
      submission_id: data.orderId,
      card_grade_id: data.card.cardGradeId,
      quantity: 1,
      card_name: data.card.cardName,
      card_set: data.card.cardSet,
      card_number: data.card.cardNumber,
      card_year: data.card.cardYear,
      image_url: data.card.imageUrl,
      declared_value: dollarsOf(data.card.declaredValueCents),
      status: PLACED_STATUS,
      ags_card_id: null,
      created_at: data.placedAt,
    });
  },
});

/** The stored contact: parsed by the driver, or JSON text in a row still waiting to be written. */
function shippingAddressOf(value: unknown): Record<string, string | null> {
  return (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, string | null>;
}

/** The timeline as stored: JSON text as written here, or the array the database reads it back as. */
export function timelineOf(stored: unknown): OrderTimelineEntry[] {
  const value: unknown = typeof stored === 'string' ? JSON.parse(stored) : stored;
  return Array.isArray(value) ? (value as OrderTimelineEntry[]) : [];
}
