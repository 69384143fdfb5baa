import type { Kysely } from 'kysely';
import { recordLogin } from '../../commands/accounts/record-login.ts';
import { registerUser } from '../../commands/accounts/register-user.ts';
import { emailClaimSecret as emailClaimSecretOf } from '../../commands/accounts/streams.ts';
import { changePassword, setLeaderboardOptOut, setMarketingPreference } from '../../commands/accounts/account-settings.ts';
import { resetPassword } from '../../commands/accounts/password-reset.ts';
import { BUILT_IN_PROVIDER_TOKEN, type ProviderProfile } from '../../contracts/auth.ts';
import { SERVICE_LEVELS } from '../../domain/orders/service-levels.ts';
import { AppError } from '../../contracts/errors.ts';
import { findUserByEmail, findUserById, usernamesLike, userView, type UserRow } from '../../projections/users/queries.ts';
import type { PasswordHasher } from '../auth/password-hasher.ts';
import type { Clock, IdGenerator } from '../clock/clock.ts';
import type { Tables } from '../database/schema.ts';
import type { EventStore } from '../event-store/types.ts';
import { INVALID_CREDENTIALS_MESSAGE, type GradingProvider } from './types.ts';

/**
 * Marks a user as linked to the built-in provider (in the shared contracts, so the web app knows it). Not a secret:
 * calls are authorised by the session. The web app asks for the provider profile only when the user carries a token
 * (SPEC.md §6), and disables Sync for this one.
 */
export { BUILT_IN_PROVIDER_TOKEN };

export const NOTHING_TO_SYNC_MESSAGE = 'Nothing to sync: your account uses the built-in provider, so there are no instant grades elsewhere.';
export const NO_ADDRESSES_TO_SYNC_MESSAGE = 'Nothing to sync: your account uses the built-in provider, so your address book here is the only one.';
export const WRONG_CURRENT_PASSWORD_MESSAGE = 'Your current password is not correct';

export interface BuiltInProviderDeps {
  store: EventStore;
  db: Kysely<Tables>;
  hasher: PasswordHasher;
  clock: Clock;
  ids: IdGenerator;
}

/** Local accounts: event-sourced users, argon2id passwords, the profile from the users read model. */
export function builtInProvider(deps: BuiltInProviderDeps): GradingProvider {
  const { store, db, hasher, clock, ids } = deps;
  const emailClaimSecret = emailClaimSecretOf(db);

  async function userRow(userId: string): Promise<UserRow> {
    const row = await findUserById(db, userId);
    if (!row) throw new AppError('unauthorized', 'unauthorized', 'Not signed in');
    return row;
  }

  return {
    name: 'built-in',

    async register(input, metadata) {
      const passwordHash = await hasher.hash(input.password);
      const userId = ids.uuid();
      await registerUser(
        { store, metadata },
        { usernamesStartingWith: (base) => usernamesLike(db, base), emailClaimSecret },
        {
          userId,
          email: input.email,
          passwordHash,
          firstName: input.first_name,
          lastName: input.last_name,
          phone: input.phone,
          marketingNotificationsEnabled: input.is_marketing_notifications_enabled,
          providerUserId: userId,
          providerToken: BUILT_IN_PROVIDER_TOKEN,
          registeredAt: clock.now().toISOString(),
        },
      );
      return userView(await userRow(userId));
    },

    async login(input, metadata) {
      const row = await findUserByEmail(db, input.email);
      const valid = row ? await hasher.verify(row.password, input.password) : await hasher.verifyNobody(input.password);
      if (!row || !valid) throw new AppError('unauthorized', 'invalid_credentials', INVALID_CREDENTIALS_MESSAGE);
      await recordLogin({ store, metadata }, { userId: row.id, at: clock.now().toISOString() });
      return userView(row);
    },

    async profile(userId) {
      return profileView(await userRow(userId));
    },

    // Accounts live here, so there is no other place a card could have been graded.
    async instantGrades() {
      return { message: NOTHING_TO_SYNC_MESSAGE, cards: [] };
    },

    async accountSettings(userId) {
      const row = await userRow(userId);
      return {
        username: row.username,
        email: row.email,
        provider: { name: 'built-in', managedHere: true },
        is_marketing_notifications_enabled: row.marketing_notifications_enabled,
        leaderboard_opt_out: row.leaderboard_opt_out,
      };
    },

    async setMarketingPreference(userId, enabled, metadata) {
      await userRow(userId);
      await setMarketingPreference({ store, metadata }, { userId, enabled, at: clock.now().toISOString() });
    },

    async setLeaderboardOptOut(userId, optedOut, metadata) {
      await userRow(userId);
      await setLeaderboardOptOut({ store, metadata }, { userId, optedOut, at: clock.now().toISOString() });
    },

    async verifyPassword(userId, password) {
      const row = await userRow(userId);
      if (!(await hasher.verify(row.password, password))) throw new AppError('invalid', 'wrong_current_password', WRONG_CURRENT_PASSWORD_MESSAGE);
    },

    async changePassword(userId, input, metadata) {
      const row = await userRow(userId);
      if (!(await hasher.verify(row.password, input.current_password))) {
        throw new AppError('invalid', 'wrong_current_password', WRONG_CURRENT_PASSWORD_MESSAGE);
      }
      const passwordHash = await hasher.hash(input.password);
      await changePassword({ store, metadata }, { userId, passwordHash, at: clock.now().toISOString() });
    },

    async resetPassword(token, password, metadata) {
      // Hashed before the link is spent: a failure here leaves the link working.
      const passwordHash = await hasher.hash(password);
      return resetPassword({ store, metadata }, { token, passwordHash, at: clock.now().toISOString() });
    },

    // The address book here is the only one there is.
    async syncAddresses() {
      return { synced: 0, message: NO_ADDRESSES_TO_SYNC_MESSAGE };
    },

    async serviceLevels() {
      return SERVICE_LEVELS;
    },

    // Grading happens here: the order as placed is the whole hand-over, so there is no other id to keep.
    async submitOrder() {
      return { providerOrderId: null };
    },
  };
}

function profileView(row: UserRow): ProviderProfile {
  const fullName = [row.first_name, row.last_name].filter(Boolean).join(' ');
  return {
    id: row.id,
    full_name: fullName === '' ? row.username : fullName,
    first_name: row.first_name,
    last_name: row.last_name,
    username: row.username,
    email: row.email,
    phone: row.phone,
    profile_image: null,
    customer_number: row.customer_number,
    roles: [{ name: row.role }],
    role: row.role,
    stripe_id: null,
    wallet: { balance: Number(row.wallet_balance) },
    is_marketing_notifications_enabled: row.marketing_notifications_enabled,
  };
}
