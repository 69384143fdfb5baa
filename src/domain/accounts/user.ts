import { AppError } from '../../contracts/errors.ts';
import { assertNever, type Decider } from '../decider.ts';
import type {
  AccountErased,
  LeaderboardOptOutChanged,
  MarketingPreferenceChanged,
  PasswordChanged,
  SignInRefused,
  UserEvent,
  UserLoggedIn,
  UsernameChanged,
  UserRegistered,
} from './events.ts';

// The user aggregate, stream `user-<userId>`. Email uniqueness is not decided here but by the
// email-claim aggregate (./email-claim.ts), which is claimed first.

export type UserState =
  | { status: 'unregistered' }
  | { status: 'registered'; userId: string; email: string; username: string; lastLoginAt: string | null; marketing: boolean; leaderboardOptOut: boolean }
  /** Nothing more is recorded about an erased account: its id stays taken, its person is gone. */
  | { status: 'erased'; userId: string };

export type RegisterUser = { type: 'RegisterUser'; data: UserRegistered['data'] };
/** Recorded after the credentials were verified, which needs the hasher and so happens outside. */
export type RecordLogin = { type: 'RecordLogin'; data: UserLoggedIn['data'] };
/** A refused sign-in, recorded for the audit trail (the refusal itself was decided outside: hasher, throttle). */
export type RecordRefusedSignIn = { type: 'RecordRefusedSignIn'; data: SignInRefused['data'] };
/** Renames the account, if it still has the name the command replaces (two processes renaming it do it once). */
export type ChangeUsername = { type: 'ChangeUsername'; data: UsernameChanged['data'] };
/** Settings, Notifications: the marketing preference; choosing what is already chosen records nothing. */
export type SetMarketingPreference = { type: 'SetMarketingPreference'; data: MarketingPreferenceChanged['data'] };
/** Settings, Security: the current password was verified outside (the hasher), the new one hashed there too. */
export type ChangePassword = { type: 'ChangePassword'; data: PasswordChanged['data'] };
/** Settings: leave the public leaderboard, or come back to it. */
export type SetLeaderboardOptOut = { type: 'SetLeaderboardOptOut'; data: LeaderboardOptOutChanged['data'] };
/** Settings (the password checked outside) or an operator: erase the account and its person's data. */
export type EraseAccount = { type: 'EraseAccount'; data: AccountErased['data'] };
export type UserCommand = RegisterUser | RecordLogin | RecordRefusedSignIn | ChangeUsername | SetMarketingPreference | ChangePassword | SetLeaderboardOptOut | EraseAccount;

export function registerUser(command: RegisterUser, state: UserState): UserEvent[] {
  if (state.status === 'erased') throw new AppError('conflict', 'user_exists', 'This account already exists');
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

export function changeUsername(command: ChangeUsername, state: UserState): UserEvent[] {
  if (state.status !== 'registered' || state.username !== command.data.from || command.data.from === command.data.to) return [];
  return [{ type: 'UsernameChanged', data: command.data }];
}

const noSuchAccount = () => new AppError('not_found', 'user_not_found', 'No such account');

export function setMarketingPreference(command: SetMarketingPreference, state: UserState): UserEvent[] {
  if (state.status !== 'registered') throw noSuchAccount();
  if (state.marketing === command.data.enabled) return [];
  return [{ type: 'MarketingPreferenceChanged', data: command.data }];
}

export function changePassword(command: ChangePassword, state: UserState): UserEvent[] {
  if (state.status !== 'registered') throw noSuchAccount();
  return [{ type: 'PasswordChanged', data: command.data }];
}

export function setLeaderboardOptOut(command: SetLeaderboardOptOut, state: UserState): UserEvent[] {
  if (state.status !== 'registered') throw noSuchAccount();
  if (state.leaderboardOptOut === command.data.optedOut) return [];
  return [{ type: 'LeaderboardOptOutChanged', data: command.data }];
}

/** Erasing twice erases once: a retry after a crash finds the account erased and records nothing more. */
export function eraseAccount(command: EraseAccount, state: UserState): UserEvent[] {
  if (state.status === 'erased') return [];
  if (state.status !== 'registered') throw noSuchAccount();
  return [{ type: 'AccountErased', data: command.data }];
}

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered':
      return {
        status: 'registered',
        userId: event.data.userId,
        email: event.data.email,
        username: event.data.username,
        lastLoginAt: null,
        marketing: event.data.marketingNotificationsEnabled,
        leaderboardOptOut: false,
      };
    case 'UserLoggedIn':
      return state.status === 'registered' ? { ...state, lastLoginAt: event.data.at } : state;
    case 'SignInRefused':
      return state;
    case 'UsernameChanged':
      return state.status === 'registered' ? { ...state, username: event.data.to } : state;
    case 'MarketingPreferenceChanged':
      return state.status === 'registered' ? { ...state, marketing: event.data.enabled } : state;
    case 'PasswordChanged':
      return state;
    case 'LeaderboardOptOutChanged':
      return state.status === 'registered' ? { ...state, leaderboardOptOut: event.data.optedOut } : state;
    case 'AccountErased':
      return { status: 'erased', userId: event.data.userId };
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
      case 'ChangeUsername':
        return changeUsername(command, state);
      case 'SetMarketingPreference':
        return setMarketingPreference(command, state);
      case 'ChangePassword':
        return changePassword(command, state);
      case 'SetLeaderboardOptOut':
        return setLeaderboardOptOut(command, state);
      case 'EraseAccount':
        return eraseAccount(command, state);
      default:
        return assertNever(command);
    }
  },
};
