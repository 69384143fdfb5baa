import { guestSessionDecider } from '../../domain/accounts/guest-session.ts';
import { handleCommand, type CommandContext } from '../handle-command.ts';
import type { EraseAccountDeps } from './erase-account.ts';
import { guestSessionStream } from './streams.ts';

// Erasing a guest who never signed in (issue 34): what they sent as a guest (a feedback sender's name and email) was
// sealed with the guest session's own key, which no account's erasure reaches. As with an account, in an order that a
// second run finishes: GuestErased on the guest's stream (the feedback read model drops the name and email at once),
// the key deleted, then the photos no one else names. A guest who signed in since is erased with their account.

export interface GuestErasure {
  guestId: string;
  keysDeleted: number;
  photosDeleted: number;
}

export async function eraseGuest(context: CommandContext, deps: Pick<EraseAccountDeps, 'personKeys' | 'photosOnlyOwnedBy' | 'deletePhoto'>, input: { guestId: string; at: string }): Promise<GuestErasure> {
  const { guestId } = input;
  await handleCommand(context, {
    ...guestSessionStream(guestId),
    decider: guestSessionDecider,
    command: { type: 'EraseGuest', data: { guestId, by: 'operator', erasedAt: input.at } },
  });
  const owners = [`guest:${guestId}`];
  const keysDeleted = await deps.personKeys.erase(owners, new Date(input.at));
  let photosDeleted = 0;
  for (const hash of await deps.photosOnlyOwnedBy(owners)) {
    if (await deps.deletePhoto(hash)) photosDeleted++;
  }
  return { guestId, keysDeleted, photosDeleted };
}
