import { DELETED_USER } from '../../domain/personal-data.ts';
import { accountErasedSchema, leaderboardOptOutChangedSchema, marketingPreferenceChangedSchema, passwordChangedSchema, userLoggedInSchema, usernameChangedSchema, userRegisteredSchema } from '../../domain/accounts/events.ts';
import { normalizeEmail } from '../../domain/accounts/identity.ts';
import { rowProjection } from '../runner/row-projection.ts';
import { rowTable } from '../runner/row-store.ts';

/** `CG-000042`: the customer number the built-in provider shows on the profile. */
export function customerNumber(globalPosition: number): string {
  return `CG-${String(globalPosition).padStart(6, '0')}`;
}

// Inline: sign-in reads this table right after registration. A duplicate email or username makes
// the insert, and so the whole append, fail: the unique indexes are a backstop (see email-claim.ts).
const users = rowTable('users', ['id']);

export const usersProjection = rowProjection({
  name: 'users',
  handles: ['UserRegistered', 'UserLoggedIn', 'UsernameChanged', 'MarketingPreferenceChanged', 'PasswordChanged', 'LeaderboardOptOutChanged', 'AccountErased'],
  tables: [users],
  async handle(rows, event) {
    if (event.type === 'UserRegistered') {
      const data = userRegisteredSchema.parse(event.data);
      // An erased person's registration, read after their key was deleted: the account is gone, no row (as the
      // AccountErased that follows it in the log leaves none).
      if (data.email === DELETED_USER) return;
      await rows.insertIfAbsent(users, {
        id: data.userId,
        username: data.username,
        password: data.passwordHash,
        email: data.email,
        email_normalized: normalizeEmail(data.email),
        created_at: data.registeredAt,
        ags_card_user_id: data.providerUserId,
        ags_card_token: data.providerToken,
        first_name: data.firstName,
        last_name: data.lastName,
        phone: data.phone,
        customer_number: customerNumber(event.globalPosition),
        marketing_notifications_enabled: data.marketingNotificationsEnabled,
      });
    } else if (event.type === 'UserLoggedIn') {
      const data = userLoggedInSchema.parse(event.data);
      await rows.update(users, { id: data.userId }, { last_login_at: data.at });
    } else if (event.type === 'UsernameChanged') {
      const data = usernameChangedSchema.parse(event.data);
      await rows.update(users, { id: data.userId }, { username: data.to });
    } else if (event.type === 'MarketingPreferenceChanged') {
      const data = marketingPreferenceChangedSchema.parse(event.data);
      await rows.update(users, { id: data.userId }, { marketing_notifications_enabled: data.enabled });
    } else if (event.type === 'PasswordChanged') {
      const data = passwordChangedSchema.parse(event.data);
      await rows.update(users, { id: data.userId }, { password: data.passwordHash });
    } else if (event.type === 'LeaderboardOptOutChanged') {
      const data = leaderboardOptOutChangedSchema.parse(event.data);
      await rows.update(users, { id: data.userId }, { leaderboard_opt_out: data.optedOut });
    } else if (event.type === 'AccountErased') {
      // Purged at once, not only on a rebuild: nobody signs in to it and nothing shows its person.
      const data = accountErasedSchema.parse(event.data);
      await rows.delete(users, { id: data.userId });
    }
  },
});
