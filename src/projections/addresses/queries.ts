import type { Kysely, Selectable } from 'kysely';
import type { ShippingAddress } from '../../contracts/addresses.ts';
import type { Tables } from '../../infra/database/schema.ts';
import type { ShippingAddressesTable } from './table.ts';

type AddressRow = Selectable<ShippingAddressesTable>;

export function addressView(row: AddressRow): ShippingAddress {
  return {
    id: row.id,
    fullName: row.full_name,
    addressLine1: row.address_line1,
    addressLine2: row.address_line2,
    city: row.city,
    state: row.state,
    zipCode: row.zip_code,
    country: row.country,
    phoneNumber: row.phone_number,
    isDefault: row.is_default,
    agsAddressId: row.ags_address_id,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** The user's addresses: the default first, then oldest first. */
export async function addressesOf(db: Kysely<Tables>, userId: string): Promise<ShippingAddress[]> {
  const rows = await db
    .selectFrom('shipping_addresses')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('is_default', 'desc')
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
  return rows.map(addressView);
}

/** One of the user's addresses; another user's id is as unknown as a missing one. */
export async function findAddress(db: Kysely<Tables>, userId: string, addressId: string): Promise<ShippingAddress | undefined> {
  const row = await db.selectFrom('shipping_addresses').selectAll().where('id', '=', addressId).where('user_id', '=', userId).executeTakeFirst();
  return row ? addressView(row) : undefined;
}
