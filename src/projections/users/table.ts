import type { ColumnType, Generated } from 'kysely';

// The `users` read model (SPEC.md §3 users, plus what the built-in provider's profile shows).
// Written only by the users projection.
export interface UsersTable {
  id: string;
  /** Unique, max 255. */
  username: string;
  /** The argon2id hash (SPEC.md calls the column `password`). */
  password: string;
  email: string;
  /** Lower-cased, trimmed; unique: the backstop of the email-claim streams. */
  email_normalized: string;
  created_at: ColumnType<Date, Date | string, never>;
  ags_card_user_id: string | null;
  ags_card_token: string | null;
  first_name: string | null;
  last_name: string | null;
  /** Max 50. */
  phone: string | null;
  /** `CG-000042`: from the position of the user's UserRegistered in the global log, so stable and unique. */
  customer_number: string;
  marketing_notifications_enabled: boolean;
  /** numeric(10,2), read back as a string. */
  wallet_balance: ColumnType<string, string | number | undefined, string | number>;
  role: Generated<string>;
  last_login_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Left out of the public leaderboard (Settings). */
  leaderboard_opt_out: ColumnType<boolean, boolean | undefined, boolean>;
}

export interface UsersTables {
  users: UsersTable;
}
