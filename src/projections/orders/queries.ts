import type { Kysely } from 'kysely';
import type { OrderView } from '../../contracts/orders.ts';
import type { Tables } from '../../infra/database/schema.ts';
import { timelineOf } from './orders-projection.ts';

// Orders as the order history and the order page show them; only the caller's own.

const money = (value: string | number) => Number(value).toFixed(2);

function ordersQuery(db: Kysely<Tables>, userId: string) {
  return db
    .selectFrom('submission_orders as o')
    .innerJoin('submission_cards as c', 'c.submission_id', 'o.id')
    .selectAll('o')
    .select(['c.card_grade_id', 'c.card_name', 'c.card_set', 'c.card_number', 'c.image_url'])
    .where('o.user_id', '=', userId);
}

type OrderRow = Awaited<ReturnType<ReturnType<typeof ordersQuery>['executeTakeFirstOrThrow']>>;

function orderView(row: OrderRow): OrderView {
  const address = row.shipping_address as Record<string, string | null>;
  return {
    id: row.id,
    orderNumber: row.order_number,
    status: row.status,
    timeline: timelineOf(row.status_history),
    serviceLevel: row.service_level,
    serviceLevelName: row.service_level_name,
    card: { id: row.card_grade_id ?? '', cardName: row.card_name, cardSet: row.card_set, cardNumber: row.card_number, imageUrl: row.image_url },
    shippingAddress: {
      fullName: address.fullName ?? '',
      addressLine1: address.addressLine1 ?? '',
      addressLine2: address.addressLine2 ?? null,
      city: address.city ?? '',
      state: address.state ?? '',
      zipCode: address.zipCode ?? '',
      country: address.country ?? '',
      phoneNumber: address.phoneNumber ?? null,
    },
    cardCleaning: row.card_cleaning,
    subgradesReport: row.subgrades_report,
    heightMap: row.height_map,
    requireSignature: row.require_signature,
    customShippingBox: row.custom_shipping_box,
    slabCards: row.slab_cards,
    totalDeclaredValue: money(row.total_declared_value),
    serviceFee: money(row.service_fee),
    shippingFee: money(row.shipping_fee),
    insuranceFee: money(row.insurance_fee),
    additionalFees: money(row.additional_fees),
    discounts: money(row.discounts),
    totalAmount: money(row.total_amount),
    paidAmount: money(row.paid_amount),
    paymentBrand: row.payment_brand,
    paymentLast4: row.payment_last4,
    notes: row.notes,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

export async function ordersOf(db: Kysely<Tables>, userId: string): Promise<OrderView[]> {
  const rows = await ordersQuery(db, userId).orderBy('o.created_at', 'desc').orderBy('o.id').execute();
  return rows.map(orderView);
}

/** By id or by order number; another user's order is as unknown as a missing one. */
export async function findOrder(db: Kysely<Tables>, userId: string, orderId: string): Promise<OrderView | undefined> {
  const row = await ordersQuery(db, userId).where('o.id', '=', orderId).executeTakeFirst();
  return row ? orderView(row) : undefined;
}
