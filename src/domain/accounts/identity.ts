// Pure helpers about who someone is: normalised emails, usernames, owners.

/** The form in which two addresses are the same account: trimmed, lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

const USERNAME_BASE_MAX = 40;

/**
 * The part of a username taken from the email: its local part without a `+tag`, lower-cased,
 * letters, digits, `.`, `_` and `-` only.
 */
export function usernameBase(email: string): string {
  const local = (normalizeEmail(email).split('@')[0] ?? '').split('+')[0] ?? '';
  const cleaned = local.replace(/[^a-z0-9._-]/g, '').slice(0, USERNAME_BASE_MAX);
  return cleaned === '' ? 'user' : cleaned;
}

/** The first of `base`, `base2`, `base3`, … that is not taken. */
export function firstFreeUsername(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** Who owns a thing: a signed-in user, or a guest session until it is claimed (DESIGN.md §6). */
export type Owner = `user:${string}` | `guest:${string}`;

export function ownerOf(session: { userId: string | null; guestId: string }): Owner {
  return session.userId ? `user:${session.userId}` : `guest:${session.guestId}`;
}
