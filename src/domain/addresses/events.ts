import { z } from 'zod';
import { addressFieldsSchema } from '../../contracts/addresses.ts';
import type { DomainEvent } from '../decider.ts';

export { addressFieldsSchema };

// The events of a user's address book, stream `address-book-<userId>`: one stream per user, so one decider
// sees every address and keeps exactly one default. Payloads are zod schemas, version 1 of each.

export type AddressFieldsData = z.infer<typeof addressFieldsSchema>;

export const addressAddedSchema = z.object({
  userId: z.string(),
  addressId: z.string(),
  fields: addressFieldsSchema,
  /** The provider's id when the address came from a sync (SPEC.md agsAddressId); null when added here. */
  agsAddressId: z.number().int().nullable(),
  at: z.string(),
});
export type AddressAdded = DomainEvent<'AddressAdded', z.infer<typeof addressAddedSchema>>;

export const addressEditedSchema = z.object({ userId: z.string(), addressId: z.string(), fields: addressFieldsSchema, at: z.string() });
export type AddressEdited = DomainEvent<'AddressEdited', z.infer<typeof addressEditedSchema>>;

/** The default moved to `addressId` (from `previousDefaultId`, null for the book's first address). */
export const defaultAddressSetSchema = z.object({ userId: z.string(), addressId: z.string(), previousDefaultId: z.string().nullable(), at: z.string() });
export type DefaultAddressSet = DomainEvent<'DefaultAddressSet', z.infer<typeof defaultAddressSetSchema>>;

export const addressRemovedSchema = z.object({ userId: z.string(), addressId: z.string(), at: z.string() });
export type AddressRemoved = DomainEvent<'AddressRemoved', z.infer<typeof addressRemovedSchema>>;

export type AddressBookEvent = AddressAdded | AddressEdited | DefaultAddressSet | AddressRemoved;

export const addressBookEventSchemas = {
  AddressAdded: addressAddedSchema,
  AddressEdited: addressEditedSchema,
  DefaultAddressSet: defaultAddressSetSchema,
  AddressRemoved: addressRemovedSchema,
} as const;
