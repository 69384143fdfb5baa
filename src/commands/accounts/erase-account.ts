import { emailClaimDecider } from '../../domain/accounts/email-claim.ts';
import { userDecider } from '../../domain/accounts/user.ts';
import type { PersonKeys } from '../../infra/personal-data/person-keys.ts';
import { AppError } from '../../contracts/errors.ts';
import { handleCommand, type CommandContext } from '../handle-command.ts';
import { emailClaimStream, userStream } from './streams.ts';

// Erasing an account (GDPR Art. 17, issue 34). The log is never rewritten: the person's fields in it were sealed with
// their own key, and deleting the key is what makes them unreadable. In this order, so that a crash at any step is
// finished by running it again (each step records nothing the second time):
//   1. the email is released (whoever registers it next gets it);
//   2. AccountErased on the user's stream: the inline read models drop the person at once;
//   3. the keys are deleted (the user's and those of the guest sessions it claimed);
//   4. the photos no one else names are deleted from the image store.
// Cards, grades and orders stay, for the audit trail, under the account's id, which now names nobody.

export interface EraseAccountDeps {
  personKeys: PersonKeys;
  /** The guest sessions this user claimed: their feedback was sealed under them. */
  claimedGuestIds(userId: string): Promise<string[]>;
  /** Stored photos that only these owners' rows name (a read-model query, injected to keep layers one-way). */
  photosOnlyOwnedBy(owners: readonly string[]): Promise<string[]>;
  deletePhoto(hash: string): Promise<boolean>;
  /** The server secret the email-claim stream's id is keyed with (streams.ts emailClaimSecret). */
  emailClaimSecret(): Promise<Buffer>;
}

export interface AccountErasure {
  userId: string;
  keysDeleted: number;
  photosDeleted: number;
}

export async function eraseAccount(context: CommandContext, deps: EraseAccountDeps, input: { userId: string; by: 'self' | 'operator'; at: string }): Promise<AccountErasure> {
  const { userId } = input;
  const stream = userStream(userId);
  const { events } = await context.store.readStream(stream.streamId);
  const state = events.reduce((s, e) => userDecider.evolve(s, e as never), userDecider.initialState());
  if (state.status === 'unregistered') throw new AppError('not_found', 'user_not_found', 'No such account');

  const guestIds = await deps.claimedGuestIds(userId);
  if (state.status === 'registered') {
    await handleCommand(context, {
      ...emailClaimStream(state.email, await deps.emailClaimSecret()),
      decider: emailClaimDecider,
      command: { type: 'ReleaseEmail', data: { userId, releasedAt: input.at } },
    });
  }
  await handleCommand(context, {
    ...stream,
    decider: userDecider,
    command: { type: 'EraseAccount', data: { userId, by: input.by, guestIds, erasedAt: input.at } },
  });
  const owners = [`user:${userId}`, ...guestIds.map((guestId) => `guest:${guestId}`)];
  const keysDeleted = await deps.personKeys.erase(owners, new Date(input.at));
  let photosDeleted = 0;
  for (const hash of await deps.photosOnlyOwnedBy(owners)) {
    if (await deps.deletePhoto(hash)) photosDeleted++;
  }
  return { userId, keysDeleted, photosDeleted };
}
