import type { Kysely, Selectable } from 'kysely';
import type { User } from '../../contracts/auth.ts';
import { normalizeEmail } from '../../domain/accounts/identity.ts';
import type { Tables } from '../../infra/database/schema.ts';
import type { UsersTable } from './table.ts';

export type UserRow = Selectable<UsersTable>;

export async function findUserById(db: Kysely<Tables>, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Any letter case: the comparison is on the normalised email. */
export async function findUserByEmail(db: Kysely<Tables>, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email_normalized', '=', normalizeEmail(email)).executeTakeFirst();
}

/** Usernames equal to `base` or starting with it, to pick the first free one. */
export async function usernamesLike(db: Kysely<Tables>, base: string): Promise<Set<string>> {
  const pattern = `${base.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db.selectFrom('users').select('username').where('username', 'like', pattern).execute();
  return new Set(rows.map((r) => r.username));
}

/** The current-user answer (SPEC.md §3 User). */
export function userView(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    phone: row.phone,
    agsCardToken: row.ags_card_token,
  };
}
