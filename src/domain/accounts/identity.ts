// Pure helpers about who someone is: normalised emails, usernames, owners.

/** The form in which two addresses are the same account: trimmed, lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

const USERNAME_BASE_MAX = 40;

/**
 * A person's public name (the leaderboard, the top bar): the first name and the initial of the last ("Grace" and
 * "Hopper" give "GraceH"), never anything from the email. Spaces and invisible characters are left out.
 */
export function usernameBase(firstName: string | null, lastName: string | null): string {
  const first = Array.from((firstName ?? '').normalize('NFC').replace(/[\s\p{C}]/gu, ''));
  const initial = Array.from((lastName ?? '').normalize('NFC').replace(/[\s\p{C}]/gu, ''))[0]?.toUpperCase() ?? '';
  const base = [...first.slice(0, USERNAME_BASE_MAX - 1), initial].join('');
  return base === '' ? 'Collector' : base;
}

/**
 * What usernames were made of before (the email's local part without a `+tag`, lower-cased, letters, digits, `.`,
 * `_` and `-`): kept only to find the accounts whose public name still shows part of their email.
 */
export function emailUsernameBase(email: string): string {
  const local = (normalizeEmail(email).split('@')[0] ?? '').split('+')[0] ?? '';
  const cleaned = local.replace(/[^a-z0-9._-]/g, '').slice(0, USERNAME_BASE_MAX);
  return cleaned === '' ? 'user' : cleaned;
}

/** True when `username` is the one the email gave (`base`, `base2`, …). */
export function isEmailUsername(username: string, email: string): boolean {
  const base = emailUsernameBase(email);
  return username === base || (username.startsWith(base) && /^\d+$/.test(username.slice(base.length)));
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
