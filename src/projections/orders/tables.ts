import type { OrderTimelineEntry } from '../../contracts/orders.ts';
import type { ColumnType } from 'kysely';

// The submission_orders and submission_cards read models (SPEC.md §3), plus what the order pages show (the
// address as it was when the order was placed, the service level's name, the payment's brand and last four).
// Written only by the orders projection. Money columns are numeric(10,2), read back as exact strings.

type Money = ColumnType<string, string, string>;

export interface SubmissionOrdersTable {
  id: string;
  user_id: string;
  ags_order_id: string | null;
  order_number: string;
  service_level: string;
  service_level_name: string;
  shipping_address_id: string | null;
  shipping_address: ColumnType<Record<string, string | null>, string, string>;
  status: string;
  /** Placed ('submitted'), then each status the provider reported: [{ status, at }], oldest first. */
  status_history: ColumnType<OrderTimelineEntry[], string, string>;
  card_cleaning: boolean;
  subgrades_report: boolean;
  height_map: boolean;
  require_signature: boolean;
  custom_shipping_box: boolean;
  slab_cards: boolean;
  total_declared_value: Money;
  service_fee: Money;
  shipping_fee: Money;
  insurance_fee: Money;
  additional_fees: Money;
  discounts: Money;
  total_amount: Money;
  paid_amount: Money;
  payment_brand: string;
  payment_last4: string;
  created_at: ColumnType<Date, Date | string, Date | string>;
  updated_at: ColumnType<Date, Date | string, Date | string>;
  completed_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  tracking_number: string | null;
  shipping_carrier: string | null;
  notes: string | null;
}

export interface SubmissionCardsTable {
  id: string;
  submission_id: string;
  card_grade_id: string | null;
  quantity: number;
  card_name: string;
  card_set: string | null;
  card_number: string | null;
  card_year: string | null;
  image_url: string | null;
  declared_value: Money;
  status: string | null;
  ags_card_id: string | null;
  created_at: ColumnType<Date, Date | string, Date | string>;
}

export interface OrderTables {
  submission_orders: SubmissionOrdersTable;
  submission_cards: SubmissionCardsTable;
}
