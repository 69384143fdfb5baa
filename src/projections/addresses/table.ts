import type { ColumnType } from 'kysely';

// The shipping_addresses read model (SPEC.md §3). Written only by the addresses projection.
export interface ShippingAddressesTable {
  id: string;
  user_id: string;
  full_name: string;
  address_line1: string;
  address_line2: string | null;
  city: string;
  state: string;
  zip_code: string;
  country: string;
  phone_number: string | null;
  is_default: boolean;
  ags_address_id: number | null;
  created_at: ColumnType<Date, Date | string, Date | string>;
  updated_at: ColumnType<Date, Date | string, Date | string>;
}

export interface AddressTables {
  shipping_addresses: ShippingAddressesTable;
}
