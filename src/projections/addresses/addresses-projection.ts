import { addressAddedSchema, addressEditedSchema, addressRemovedSchema, defaultAddressSetSchema } from '../../domain/addresses/index.ts';
import type { AddressFieldsData } from '../../domain/addresses/index.ts';
import { accountErasedSchema } from '../../domain/accounts/events.ts';
import { rowProjection } from '../runner/row-projection.ts';
import { rowTable } from '../runner/row-store.ts';

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

const addresses = rowTable('shipping_addresses', ['id'], [['user_id']]);

export const addressesProjection = rowProjection({
  name: 'shipping-addresses',
  handles: ['AddressAdded', 'AddressEdited', 'DefaultAddressSet', 'AddressRemoved', 'AccountErased'],
  tables: [addresses],
  async handle(rows, event) {
    switch (event.type) {
      case 'AddressAdded': {
        const data = addressAddedSchema.parse(event.data);
        await rows.insertIfAbsent(addresses, {
          id: data.addressId,
          user_id: data.userId,
          ...columns(data.fields),
          is_default: false,
          ags_address_id: data.agsAddressId,
          created_at: data.at,
          updated_at: data.at,
        });
        break;
      }
      case 'AddressEdited': {
        const data = addressEditedSchema.parse(event.data);
        await rows.update(addresses, { id: data.addressId }, { ...columns(data.fields), updated_at: data.at });
        break;
      }
      case 'DefaultAddressSet': {
        const data = defaultAddressSetSchema.parse(event.data);
        // The old default first: a partial unique index allows one default per user.
        for (const address of await rows.find(addresses, { user_id: data.userId })) {
          if (address.is_default) await rows.update(addresses, { id: address.id }, { is_default: false });
        }
        await rows.update(addresses, { id: data.addressId }, { is_default: true, updated_at: data.at });
        break;
      }
      case 'AddressRemoved': {
        const data = addressRemovedSchema.parse(event.data);
        const address = await rows.get(addresses, { id: data.addressId });
        if (address?.user_id === data.userId) await rows.delete(addresses, { id: data.addressId });
        break;
      }
      case 'AccountErased': {
        // The whole book goes with its person.
        const data = accountErasedSchema.parse(event.data);
        await rows.deleteWhere(addresses, { user_id: data.userId });
        break;
      }
    }
  },
});
