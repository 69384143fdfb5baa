import { AppError } from '../../contracts/errors.ts';
import { assertNever, type Decider } from '../decider.ts';
import type { AddressBookEvent, AddressFieldsData, DefaultAddressSet } from './events.ts';

// A user's address book, stream `address-book-<userId>`. Rules: exactly one default while the book has
// addresses (the first address becomes it; removing the default promotes the oldest remaining one; the
// default is moved, never just taken away). An address id that is not in this user's book does not exist
// for them: the same 404 whether it is another user's or nobody's.

export interface AddressBookState {
  /** Live addresses, oldest first. */
  addresses: { id: string; fields: AddressFieldsData }[];
  defaultId: string | null;
  /** Ids ever used in this book, so a retried add is recognised and a removed id is not reused. */
  knownIds: ReadonlySet<string>;
}

export type AddAddress = {
  type: 'AddAddress';
  data: { userId: string; addressId: string; fields: AddressFieldsData; makeDefault: boolean; agsAddressId: number | null; at: string };
};
export type EditAddress = { type: 'EditAddress'; data: { userId: string; addressId: string; fields: AddressFieldsData; makeDefault: boolean; at: string } };
export type SetDefaultAddress = { type: 'SetDefaultAddress'; data: { userId: string; addressId: string; at: string } };
export type RemoveAddress = { type: 'RemoveAddress'; data: { userId: string; addressId: string; at: string } };
export type AddressBookCommand = AddAddress | EditAddress | SetDefaultAddress | RemoveAddress;

export const addressNotFound = () => new AppError('not_found', 'address_not_found', 'Address not found');

/** The most addresses one book keeps: enough for anyone, and a bound on the stream. */
export const MAX_ADDRESSES = 50;

function find(state: AddressBookState, addressId: string) {
  const address = state.addresses.find((a) => a.id === addressId);
  if (!address) throw addressNotFound();
  return address;
}

function defaultMoved(state: AddressBookState, userId: string, addressId: string, at: string): DefaultAddressSet[] {
  if (state.defaultId === addressId) return [];
  return [{ type: 'DefaultAddressSet', data: { userId, addressId, previousDefaultId: state.defaultId, at } }];
}

const sameFields = (a: AddressFieldsData, b: AddressFieldsData) => (Object.keys(a) as (keyof AddressFieldsData)[]).every((k) => a[k] === b[k]);

export function addAddress(command: AddAddress, state: AddressBookState): AddressBookEvent[] {
  const { userId, addressId, fields, makeDefault, agsAddressId, at } = command.data;
  if (state.knownIds.has(addressId)) return []; // the same add retried
  if (state.addresses.length >= MAX_ADDRESSES) {
    throw new AppError('conflict', 'address_book_full', `An address book keeps at most ${MAX_ADDRESSES} addresses. Please remove one first.`);
  }
  const events: AddressBookEvent[] = [{ type: 'AddressAdded', data: { userId, addressId, fields, agsAddressId, at } }];
  if (makeDefault || state.defaultId === null) events.push(...defaultMoved(state, userId, addressId, at));
  return events;
}

export function editAddress(command: EditAddress, state: AddressBookState): AddressBookEvent[] {
  const { userId, addressId, fields, makeDefault, at } = command.data;
  const address = find(state, addressId);
  const events: AddressBookEvent[] = sameFields(address.fields, fields) ? [] : [{ type: 'AddressEdited', data: { userId, addressId, fields, at } }];
  // Unticking "default" on the default address changes nothing: there is always one, moved by choosing another.
  if (makeDefault) events.push(...defaultMoved(state, userId, addressId, at));
  return events;
}

export function setDefaultAddress(command: SetDefaultAddress, state: AddressBookState): AddressBookEvent[] {
  const { userId, addressId, at } = command.data;
  find(state, addressId);
  return defaultMoved(state, userId, addressId, at);
}

export function removeAddress(command: RemoveAddress, state: AddressBookState): AddressBookEvent[] {
  const { userId, addressId, at } = command.data;
  if (!state.addresses.some((a) => a.id === addressId)) {
    // Removing one's own address again succeeds (a retried delete); an id never in this book is unknown.
    if (state.knownIds.has(addressId)) return [];
    throw addressNotFound();
  }
  const events: AddressBookEvent[] = [{ type: 'AddressRemoved', data: { userId, addressId, at } }];
  if (state.defaultId === addressId) {
    const next = state.addresses.find((a) => a.id !== addressId);
    if (next) events.push({ type: 'DefaultAddressSet', data: { userId, addressId: next.id, previousDefaultId: null, at } });
  }
  return events;
}

export function evolveAddressBook(state: AddressBookState, event: AddressBookEvent): AddressBookState {
  switch (event.type) {
    case 'AddressAdded':
      return {
        ...state,
        addresses: [...state.addresses, { id: event.data.addressId, fields: event.data.fields }],
        knownIds: new Set([...state.knownIds, event.data.addressId]),
      };
    case 'AddressEdited':
      return { ...state, addresses: state.addresses.map((a) => (a.id === event.data.addressId ? { ...a, fields: event.data.fields } : a)) };
    case 'DefaultAddressSet':
      return { ...state, defaultId: event.data.addressId };
    case 'AddressRemoved':
      return {
        ...state,
        addresses: state.addresses.filter((a) => a.id !== event.data.addressId),
        defaultId: state.defaultId === event.data.addressId ? null : state.defaultId,
      };
    default:
      return assertNever(event);
  }
}

export const addressBookDecider: Decider<AddressBookState, AddressBookCommand, AddressBookEvent> = {
  initialState: () => ({ addresses: [], defaultId: null, knownIds: new Set() }),
  evolve: evolveAddressBook,
  decide(command, state) {
    switch (command.type) {
      case 'AddAddress':
        return addAddress(command, state);
      case 'EditAddress':
        return editAddress(command, state);
      case 'SetDefaultAddress':
        return setDefaultAddress(command, state);
      case 'RemoveAddress':
        return removeAddress(command, state);
      default:
        return assertNever(command);
    }
  },
};
