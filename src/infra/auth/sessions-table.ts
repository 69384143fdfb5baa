import type { ColumnType } from 'kysely';

// Server-side sessions (DESIGN.md §6). Infrastructure, not event-sourced: a session is a secret
// bearer credential with an expiry, not a fact of the business.
export interface SessionsTable {
  /** sha256 (hex) of the 256-bit token in the cookie; the token itself is never stored. */
  id: string;
  /** Null while the session is a guest's. */
  user_id: string | null;
  /** Every session has one; what a guest owns is recorded under it until claimed. */
  guest_id: string;
  created_at: ColumnType<Date, Date | string, never>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface SessionsTables {
  sessions: SessionsTable;
}
