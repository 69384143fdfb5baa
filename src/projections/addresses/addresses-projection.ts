import { addressAddedSchema, addressEditedSchema, addressRemovedSchema, defaultAddressSetSchema } from '../../domain/addresses/index.ts';
import type { AddressFieldsData } from '../../domain/addresses/index.ts';
import type { InlineProjection } from '../../infra/event-store/types.ts';

// Inline: the Address Book shows an address the moment it is added, and the wizard offers it at once.

const columns = (f: AddressFieldsData) => ({
  full_name: f.fullName,
  address_line1: f.addressLine1,
  address_line2: f.addressLine2,
  city: f.city,
  state: f.state,
  zip_code: f.zipCode,
  country: f.country,
  phone_number: f.phoneNumber,
});

export const addressesProjection: InlineProjection = {
  name: 'shipping-addresses',
  handles: ['AddressAdded', 'AddressEdited', 'DefaultAddressSet', 'AddressRemoved'],
  tables: ['shipping_addresses'],
  async apply(trx, events) {
    for (const event of events) {
      switch (event.type) {
        case 'AddressAdded': {
          const data = addressAddedSchema.parse(event.data);
          await trx
            .insertInto('shipping_addresses')
            .values({ id: data.addressId, user_id: data.userId, ...columns(data.fields), is_default: false, ags_address_id: data.agsAddressId, created_at: data.at, updated_at: data.at })
            .onConflict((c) => c.column('id').doNothing())
            .execute();
          break;
        }
        case 'AddressEdited': {
          const data = addressEditedSchema.parse(event.data);
          await trx.updateTable('shipping_addresses').set({ ...columns(data.fields), updated_at: data.at }).where('id', '=', data.addressId).execute();
          break;
        }
        case 'DefaultAddressSet': {
          const data = defaultAddressSetSchema.parse(event.data);
          // The old default first: a partial unique index allows one default per user.
          await trx.updateTable('shipping_addresses').set({ is_default: false }).where('user_id', '=', data.userId).where('is_default', '=', true).execute();
          await trx.updateTable('shipping_addresses').set({ is_default: true, updated_at: data.at }).where('id', '=', data.addressId).execute();
          break;
        }
        case 'AddressRemoved': {
          const data = addressRemovedSchema.parse(event.data);
          await trx.deleteFrom('shipping_addresses').where('id', '=', data.addressId).where('user_id', '=', data.userId).execute();
          break;
        }
      }
    }
  },
};
