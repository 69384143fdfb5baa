import { describe, expect, it } from 'vitest';
import { ABANDONED_CLAIM_MS, emailClaimDecider } from '../../src/domain/accounts/email-claim.ts';
import type { EmailClaimed, GuestErased, GuestSessionClaimed, GuestSessionEvent, SignInRefused, UserLoggedIn, UsernameChanged, UserRegistered } from '../../src/domain/accounts/events.ts';
import { guestSessionDecider } from '../../src/domain/accounts/guest-session.ts';
import { emailUsernameBase, firstFreeUsername, isEmailUsername, normalizeEmail, ownerOf, usernameBase } from '../../src/domain/accounts/identity.ts';
import { userDecider } from '../../src/domain/accounts/user.ts';
import { specify } from './decider-spec.ts';

const registered: UserRegistered = {
  type: 'UserRegistered',
  data: {
    userId: 'u1',
    username: 'ada',
    email: 'Ada@Example.com',
    passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$salt$hash',
    firstName: 'Ada',
    lastName: 'Lovelace',
    phone: '5551234567',
    marketingNotificationsEnabled: true,
    providerUserId: 'u1',
    providerToken: 'built-in',
    registeredAt: '2026-01-01T10:00:00.000Z',
  },
};

describe('user', () => {
  const given = specify(userDecider);

  it('registers a new user', () => {
    given([]).when({ type: 'RegisterUser', data: registered.data }).then([registered]);
  });

  it('ignores the same registration retried', () => {
    given([registered]).when({ type: 'RegisterUser', data: registered.data }).then([]);
  });

  it('refuses another registration on an existing user id', () => {
    given([registered])
      .when({ type: 'RegisterUser', data: { ...registered.data, email: 'other@example.com' } })
      .thenRefuses('user_exists');
  });

  it('records a sign-in of a registered user', () => {
    const login: UserLoggedIn = { type: 'UserLoggedIn', data: { userId: 'u1', at: '2026-01-02T10:00:00.000Z' } };
    given([registered]).when({ type: 'RecordLogin', data: login.data }).then([login]);
  });

  it('refuses to record a sign-in for nobody', () => {
    given([]).when({ type: 'RecordLogin', data: { userId: 'u1', at: '2026-01-02T10:00:00.000Z' } }).thenRefuses('user_not_found');
  });

  it('records a refused sign-in of a registered user for the audit trail, and none for nobody', () => {
    const refused: SignInRefused = { type: 'SignInRefused', data: { userId: 'u1', at: 'T3', reason: 'throttled', addressHash: 'ab12', retryAfterSeconds: 60 } };
    given([registered]).when({ type: 'RecordRefusedSignIn', data: refused.data }).then([refused]);
    given([]).when({ type: 'RecordRefusedSignIn', data: refused.data }).then([]);
  });

  it('renames an account from the name it has, once', () => {
    const renamed: UsernameChanged = { type: 'UsernameChanged', data: { userId: 'u1', from: 'ada', to: 'AdaL', at: 'T4' } };
    given([registered]).when({ type: 'ChangeUsername', data: renamed.data }).then([renamed]);
    given([registered, renamed]).when({ type: 'ChangeUsername', data: renamed.data }).then([]);
    given([]).when({ type: 'ChangeUsername', data: renamed.data }).then([]);
  });

  it('keeps the last sign-in in its state', () => {
    const state = [registered, { type: 'UserLoggedIn', data: { userId: 'u1', at: 'T2' } } as UserLoggedIn].reduce(
      userDecider.evolve,
      userDecider.initialState(),
    );
    expect(state).toEqual({ status: 'registered', userId: 'u1', email: 'Ada@Example.com', username: 'ada', lastLoginAt: 'T2', marketing: true, leaderboardOptOut: false });
  });

  const erased = { type: 'AccountErased' as const, data: { userId: 'u1', by: 'self' as const, guestIds: ['g1'], erasedAt: 'T3' } };

  it('erases an account once; nothing more is recorded about it, and its id is never registered again', () => {
    given([registered]).when({ type: 'EraseAccount', data: erased.data }).then([erased]);
    given([registered, erased]).when({ type: 'EraseAccount', data: { ...erased.data, erasedAt: 'T4' } }).then([]);
    given([]).when({ type: 'EraseAccount', data: erased.data }).thenRefuses('user_not_found');
    given([registered, erased]).when({ type: 'RecordLogin', data: { userId: 'u1', at: 'T5' } }).thenRefuses('user_not_found');
    given([registered, erased]).when({ type: 'RegisterUser', data: registered.data }).thenRefuses('user_exists');
  });

  it('leaves the leaderboard and comes back; choosing what is chosen records nothing', () => {
    const out = { type: 'LeaderboardOptOutChanged' as const, data: { userId: 'u1', optedOut: true, at: 'T2' } };
    given([registered]).when({ type: 'SetLeaderboardOptOut', data: out.data }).then([out]);
    given([registered, out]).when({ type: 'SetLeaderboardOptOut', data: { ...out.data, at: 'T3' } }).then([]);
    given([registered]).when({ type: 'SetLeaderboardOptOut', data: { ...out.data, optedOut: false } }).then([]);
  });
});

describe('email claim', () => {
  const given = specify(emailClaimDecider);
  const at = (ms: number) => new Date(Date.parse('2026-01-01T10:00:00.000Z') + ms).toISOString();
  const claimedBy = (userId: string, ms = 0): EmailClaimed => ({
    type: 'EmailClaimed',
    data: { email: 'ada@example.com', userId, claimedAt: at(ms) },
  });
  const claim = (userId: string, ms: number, claimantRegistered: boolean) => ({
    type: 'ClaimEmail' as const,
    data: { ...claimedBy(userId, ms).data, claimantRegistered },
  });

  it('claims a free address', () => {
    given([]).when(claim('u1', 0, false)).then([claimedBy('u1')]);
  });

  it('refuses an address whose holder registered', () => {
    given([claimedBy('u1')]).when(claim('u2', ABANDONED_CLAIM_MS * 10, true)).thenRefuses('email_taken');
  });

  it('refuses an address claimed moments ago by a registration still in flight', () => {
    given([claimedBy('u1')]).when(claim('u2', 1000, false)).thenRefuses('email_taken');
  });

  it('takes over a claim abandoned by a registration that never finished', () => {
    given([claimedBy('u1')]).when(claim('u2', ABANDONED_CLAIM_MS, false)).then([claimedBy('u2', ABANDONED_CLAIM_MS)]);
  });

  it('changes nothing when the same user claims again', () => {
    given([claimedBy('u1')]).when(claim('u1', 5, false)).then([]);
  });

  it('frees the address of an erased account, for anyone to register', () => {
    const released = { type: 'EmailReleased' as const, data: { userId: 'u1', releasedAt: at(10) } };
    given([claimedBy('u1')]).when({ type: 'ReleaseEmail', data: released.data }).then([released]);
    given([claimedBy('u1')]).when({ type: 'ReleaseEmail', data: { ...released.data, userId: 'u2' } }).then([]);
    given([claimedBy('u1'), released]).when(claim('u2', 20, false)).then([claimedBy('u2', 20)]);
  });
});

describe('guest session', () => {
  const given = specify(guestSessionDecider);
  const claimed = (userId: string): GuestSessionClaimed => ({
    type: 'GuestSessionClaimed',
    data: { guestId: 'g1', userId, claimedAt: '2026-01-01T10:00:00.000Z' },
  });
  const claim = (userId: string) => ({ type: 'ClaimGuestSession' as const, data: claimed(userId).data });

  it('moves a guest session to the user who signs in', () => {
    given([]).when(claim('u1')).then([claimed('u1')]);
  });

  it('claims once: again for the same user changes nothing', () => {
    given([claimed('u1')]).when(claim('u1')).then([]);
  });

  it('never hands a claimed guest session to another user', () => {
    given([claimed('u1')]).when(claim('u2')).then([]);
    expect([claimed('u1')].reduce(guestSessionDecider.evolve, guestSessionDecider.initialState())).toEqual({ status: 'claimed', userId: 'u1' });
  });

  const erased: GuestSessionEvent = { type: 'GuestErased', data: { guestId: 'g1', by: 'operator', erasedAt: '2026-01-02T10:00:00.000Z' } };
  const erase = { type: 'EraseGuest' as const, data: erased.data as GuestErased['data'] };

  it('erases a guest who never signed in, once', () => {
    given([]).when(erase).then([erased]);
    given([erased]).when(erase).then([]);
  });

  it('never erases a claimed guest on its own (the account holds its data now), and an erased one is no one to claim', () => {
    given([claimed('u1')]).when(erase).thenRefuses('guest_claimed');
    given([erased]).when(claim('u1')).then([]);
  });
});

describe('identity', () => {
  it('compares emails in any letter case', () => {
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com');
  });

  it('makes usernames from the first name and the last initial, never the email, and makes them unique', () => {
    expect(usernameBase('Ada', 'lovelace')).toBe('AdaL');
    expect(usernameBase(' Mary Ann ', 'de la Cruz')).toBe('MaryAnnD');
    expect(usernameBase('李', '小龍')).toBe('李小');
    expect(usernameBase(null, null)).toBe('Collector');
    expect(Array.from(usernameBase('x'.repeat(100), 'Y'))).toHaveLength(40);
    // What was made from emails before, to find the accounts still named so.
    expect(emailUsernameBase('Ada.Lovelace+cards@example.com')).toBe('ada.lovelace');
    expect(isEmailUsername('ada.lovelace2', 'Ada.Lovelace@example.com')).toBe(true);
    expect(isEmailUsername('AdaL', 'Ada.Lovelace@example.com')).toBe(false);
    expect(firstFreeUsername('ada', new Set())).toBe('ada');
    expect(firstFreeUsername('ada', new Set(['ada', 'ada2', 'ada.l']))).toBe('ada3');
  });

  it('names the owner of a thing', () => {
    expect(ownerOf({ userId: 'u1', guestId: 'g1' })).toBe('user:u1');
    expect(ownerOf({ userId: null, guestId: 'g1' })).toBe('guest:g1');
  });
});
