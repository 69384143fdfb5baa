import type { AddressFields } from '../../contracts/addresses.ts';
import { addressBookDecider } from '../../domain/addresses/index.ts';
import { handleCommand, type CommandContext } from '../handle-command.ts';

// The address book's commands: one stream per user, so every rule about the default is decided in one place.

export const addressBookStream = (userId: string) => ({ streamId: `address-book-${userId}`, streamType: 'address-book' });

export async function addAddress(
  context: CommandContext,
  input: { userId: string; addressId: string; fields: AddressFields; makeDefault: boolean; agsAddressId?: number | null },
): Promise<void> {
  await handleCommand(context, {
    ...addressBookStream(input.userId),
    decider: addressBookDecider,
    command: {
      type: 'AddAddress',
      data: { ...input, agsAddressId: input.agsAddressId ?? null, at: context.metadata.timestamp },
    },
  });
}

export async function editAddress(context: CommandContext, input: { userId: string; addressId: string; fields: AddressFields; makeDefault: boolean }): Promise<void> {
  await handleCommand(context, {
    ...addressBookStream(input.userId),
    decider: addressBookDecider,
    command: { type: 'EditAddress', data: { ...input, at: context.metadata.timestamp } },
  });
}

export async function setDefaultAddress(context: CommandContext, input: { userId: string; addressId: string }): Promise<void> {
  await handleCommand(context, {
    ...addressBookStream(input.userId),
    decider: addressBookDecider,
    command: { type: 'SetDefaultAddress', data: { ...input, at: context.metadata.timestamp } },
  });
}

export async function removeAddress(context: CommandContext, input: { userId: string; addressId: string }): Promise<void> {
  await handleCommand(context, {
    ...addressBookStream(input.userId),
    decider: addressBookDecider,
    command: { type: 'RemoveAddress', data: { ...input, at: context.metadata.timestamp } },
  });
}
