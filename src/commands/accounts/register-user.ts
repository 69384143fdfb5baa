import { AppError } from '../../contracts/errors.ts';
import { EMAIL_TAKEN_MESSAGE, emailClaimDecider } from '../../domain/accounts/email-claim.ts';
import type { EmailClaimEvent, UserRegistered } from '../../domain/accounts/events.ts';
import { firstFreeUsername, usernameBase } from '../../domain/accounts/identity.ts';
import { userDecider } from '../../domain/accounts/user.ts';
import { handleCommand, type CommandContext } from '../handle-command.ts';
import { emailClaimStream, userStream } from './streams.ts';

export type RegisterUserInput = Omit<UserRegistered['data'], 'username'>;

export interface RegisterUserDeps {
  /** Usernames already taken that start with `base` (a read-model query, injected to keep layers one-way). */
  usernamesStartingWith(base: string): Promise<ReadonlySet<string>>;
  /** The server secret the email-claim stream's id is keyed with (streams.ts emailClaimSecret). */
  emailClaimSecret(): Promise<Buffer>;
}

const USERNAME_ATTEMPTS = 10;

/**
 * Registers an account in two appends: first the email's own stream is claimed (exactly one of two
 * racing registrations wins it, see email-claim.ts), then the user's stream records UserRegistered.
 * Returns the username chosen.
 */
export async function registerUser(context: CommandContext, deps: RegisterUserDeps, input: RegisterUserInput): Promise<{ username: string }> {
  await claimEmail(context, await deps.emailClaimSecret(), input);

  const base = usernameBase(input.firstName, input.lastName);
  for (let attempt = 1; ; attempt++) {
    // Racing registrations of one name all see the same first free username: after a collision each skips a random
    // few free ones, so ten at once (a load test's, a family's) all get in.
    const username = freeUsername(base, await deps.usernamesStartingWith(base), attempt === 1 ? 0 : Math.floor(Math.random() * attempt * 3));
    try {
      await handleCommand(context, {
        ...userStream(input.userId),
        decider: userDecider,
        command: { type: 'RegisterUser', data: { ...input, username } },
      });
      return { username };
    } catch (error) {
      // Someone took the same username between our read and our append: the users table's unique
      // index refused the inline projection, and with it the whole append. Pick again.
      if (isUniqueViolation(error, 'username') && attempt < USERNAME_ATTEMPTS) continue;
      if (isUniqueViolation(error, 'email_normalized')) throw new AppError('conflict', 'email_taken', EMAIL_TAKEN_MESSAGE);
      throw error;
    }
  }
}

/** The free username after skipping `skip` free ones. */
function freeUsername(base: string, taken: ReadonlySet<string>, skip: number): string {
  const passed = new Set(taken);
  let name = firstFreeUsername(base, passed);
  for (let i = 0; i < skip; i++) {
    passed.add(name);
    name = firstFreeUsername(base, passed);
  }
  return name;
}

async function claimEmail(context: CommandContext, secret: Buffer, input: RegisterUserInput): Promise<void> {
  const stream = emailClaimStream(input.email, secret);
  // The decider needs to know whether the current claimant (if any) finished registering.
  const { events } = await context.store.readStream(stream.streamId);
  const claimant = events.reduce((state, e) => emailClaimDecider.evolve(state, e as unknown as EmailClaimEvent), emailClaimDecider.initialState());
  const claimantRegistered =
    claimant.status === 'claimed' && claimant.userId !== input.userId
      ? (await context.store.readStream(userStream(claimant.userId).streamId)).version > 0
      : false;
  await handleCommand(context, {
    ...stream,
    decider: emailClaimDecider,
    command: {
      type: 'ClaimEmail',
      data: { email: input.email, userId: input.userId, claimedAt: input.registeredAt, claimantRegistered },
    },
  });
}

/** A unique index of the users table refused a row; `column` is part of the constraint's name. */
function isUniqueViolation(error: unknown, column: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, constraint, message } = error as { code?: string; constraint?: string; message?: string };
  return code === '23505' && `${constraint ?? ''} ${message ?? ''}`.includes(`users_${column}`);
}
