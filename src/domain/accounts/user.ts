import { AppError } from '../../contracts/errors.ts';
import { assertNever, type Decider } from '../decider.ts';
import type { SignInRefused, UserEvent, UserLoggedIn, UserRegistered } from './events.ts';

// The user aggregate, stream `user-<userId>`. Email uniqueness is not decided here but by the
// email-claim aggregate (./email-claim.ts), which is claimed first.

export type UserState =
  | { status: 'unregistered' }
  | { status: 'registered'; userId: string; email: string; lastLoginAt: string | null };

export type RegisterUser = { type: 'RegisterUser'; data: UserRegistered['data'] };
/** Recorded after the credentials were verified, which needs the hasher and so happens outside. */
export type RecordLogin = { type: 'RecordLogin'; data: UserLoggedIn['data'] };
/** A refused sign-in, recorded for the audit trail (the refusal itself was decided outside: hasher, throttle). */
export type RecordRefusedSignIn = { type: 'RecordRefusedSignIn'; data: SignInRefused['data'] };
export type UserCommand = RegisterUser | RecordLogin | RecordRefusedSignIn;

export function registerUser(command: RegisterUser, state: UserState): UserEvent[] {
  if (state.status === 'registered') {
    if (state.userId === command.data.userId && state.email === command.data.email) return [];
    throw new AppError('conflict', 'user_exists', 'This account already exists');
  }
  return [{ type: 'UserRegistered', data: command.data }];
}

export function recordLogin(command: RecordLogin, state: UserState): UserEvent[] {
  if (state.status !== 'registered') throw new AppError('not_found', 'user_not_found', 'No such account');
  return [{ type: 'UserLoggedIn', data: command.data }];
}

export function recordRefusedSignIn(command: RecordRefusedSignIn, state: UserState): UserEvent[] {
  if (state.status !== 'registered') return [];
  return [{ type: 'SignInRefused', data: command.data }];
}

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered':
      return { status: 'registered', userId: event.data.userId, email: event.data.email, lastLoginAt: null };
    case 'UserLoggedIn':
      return state.status === 'registered' ? { ...state, lastLoginAt: event.data.at } : state;
    case 'SignInRefused':
      return state;
    default:
      return assertNever(event);
  }
}

export const userDecider: Decider<UserState, UserCommand, UserEvent> = {
  initialState: () => ({ status: 'unregistered' }),
  evolve: evolveUser,
  decide(command, state) {
    switch (command.type) {
      case 'RegisterUser':
        return registerUser(command, state);
      case 'RecordLogin':
        return recordLogin(command, state);
      case 'RecordRefusedSignIn':
        return recordRefusedSignIn(command, state);
      default:
        return assertNever(command);
    }
  },
};
