import { z } from 'zod';
import type { DomainEvent } from '../decider.ts';

// The accounts events. Payloads are zod schemas (DESIGN.md §3); version 1 of each.
// Times in payloads are ISO strings from the injected clock, decided when the command was handled.

/** A user's own stream, `user-<userId>`. */
export const userRegisteredSchema = z.object({
  userId: z.string(),
  /** Shown in the top bar and the leaderboard; unique across users (first name and last initial since UsernameChanged). */
  username: z.string().max(255),
  /** As the user typed it (trimmed); comparisons use the normalised form. */
  email: z.string().max(255),
  /** argon2id PHC string, never the password itself. */
  passwordHash: z.string().max(255),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  phone: z.string().max(50).nullable(),
  marketingNotificationsEnabled: z.boolean(),
  /** The grading provider's id and token for this account (SPEC.md §3 agsCardUserId, agsCardToken). */
  providerUserId: z.string().nullable(),
  providerToken: z.string().nullable(),
  registeredAt: z.string(),
});
export type UserRegistered = DomainEvent<'UserRegistered', z.infer<typeof userRegisteredSchema>>;

export const userLoggedInSchema = z.object({ userId: z.string(), at: z.string() });
export type UserLoggedIn = DomainEvent<'UserLoggedIn', z.infer<typeof userLoggedInSchema>>;

/** The public name changed: accounts named after their email's local part get one from their own name. */
export const usernameChangedSchema = z.object({ userId: z.string(), from: z.string(), to: z.string().max(255), at: z.string() });
export type UsernameChanged = DomainEvent<'UsernameChanged', z.infer<typeof usernameChangedSchema>>;

/**
 * A sign-in to this account refused, for the audit trail: a wrong password, or the account's throttle. Never the
 * password, nor the address in clear (a hash, so repeated attempts from one place can be told apart).
 */
export const signInRefusedSchema = z.object({
  userId: z.string(),
  at: z.string(),
  reason: z.enum(['wrong_password', 'throttled']),
  addressHash: z.string(),
  /** For a throttled attempt: when it may try again. */
  retryAfterSeconds: z.number().int().nullable(),
});
export type SignInRefused = DomainEvent<'SignInRefused', z.infer<typeof signInRefusedSchema>>;

/** The user chose whether to receive the provider's promotional offers (Settings, Notifications). */
export const marketingPreferenceChangedSchema = z.object({ userId: z.string(), enabled: z.boolean(), at: z.string() });
export type MarketingPreferenceChanged = DomainEvent<'MarketingPreferenceChanged', z.infer<typeof marketingPreferenceChangedSchema>>;

/**
 * A new password (the hash only, never the password): after the current one was checked (Settings, Security), or
 * through an emailed reset link (`via: 'reset_link'`; absent in events recorded before there were links).
 */
export const passwordChangedSchema = z.object({ userId: z.string(), passwordHash: z.string().max(255), at: z.string(), via: z.enum(['settings', 'reset_link']).optional() });
export type PasswordChanged = DomainEvent<'PasswordChanged', z.infer<typeof passwordChangedSchema>>;

/**
 * The account and the personal data of its holder erased (GDPR Art. 17, issue 34), by the person (Settings) or an
 * operator. What it identified is sealed in earlier events with keys deleted with it; its cards, grades and orders
 * stay, for the audit trail, without the person. `guestIds`: the guest sessions it had claimed, erased with it.
 */
export const accountErasedSchema = z.object({
  userId: z.string(),
  by: z.enum(['self', 'operator']),
  guestIds: z.array(z.string()),
  erasedAt: z.string(),
});
export type AccountErased = DomainEvent<'AccountErased', z.infer<typeof accountErasedSchema>>;

/** Settings: whether the account is left out of the public leaderboard. */
export const leaderboardOptOutChangedSchema = z.object({ userId: z.string(), optedOut: z.boolean(), at: z.string() });
export type LeaderboardOptOutChanged = DomainEvent<'LeaderboardOptOutChanged', z.infer<typeof leaderboardOptOutChangedSchema>>;

/** The stream `email-claim-<HMAC of the normalised email>` (commands/accounts/streams.ts): who holds an email address. */
export const emailClaimedSchema = z.object({ email: z.string(), userId: z.string(), claimedAt: z.string() });
export type EmailClaimed = DomainEvent<'EmailClaimed', z.infer<typeof emailClaimedSchema>>;

/** The holder's account was erased: the address is free to register again. */
export const emailReleasedSchema = z.object({ userId: z.string(), releasedAt: z.string() });
export type EmailReleased = DomainEvent<'EmailReleased', z.infer<typeof emailReleasedSchema>>;

/** The stream `guest-<guestId>`: what a guest session owned now belongs to this user. */
export const guestSessionClaimedSchema = z.object({ guestId: z.string(), userId: z.string(), claimedAt: z.string() });
export type GuestSessionClaimed = DomainEvent<'GuestSessionClaimed', z.infer<typeof guestSessionClaimedSchema>>;

/**
 * The stream `password-reset-<sha256(token)>`: one emailed reset link. The token itself is only in the mail; the
 * stream is named by its hash, so the log cannot be read for a working link. No email here: the user's id is enough.
 */
export const passwordResetRequestedSchema = z.object({ userId: z.string(), requestedAt: z.string(), expiresAt: z.string() });
export type PasswordResetRequested = DomainEvent<'PasswordResetRequested', z.infer<typeof passwordResetRequestedSchema>>;

/** The link was followed and a new password chosen: it works once. */
export const passwordResetUsedSchema = z.object({ userId: z.string(), usedAt: z.string() });
export type PasswordResetUsed = DomainEvent<'PasswordResetUsed', z.infer<typeof passwordResetUsedSchema>>;

/**
 * The stream `guest-<guestId>`: a guest who never signed in has had what they told us erased (issue 34; an operator's
 * `npm run feedback -- erase <email>`). Their key is deleted, so their feedback's name and email read as erased.
 */
export const guestErasedSchema = z.object({ guestId: z.string(), by: z.enum(['operator']), erasedAt: z.string() });
export type GuestErased = DomainEvent<'GuestErased', z.infer<typeof guestErasedSchema>>;

export type UserEvent =
  | UserRegistered
  | UserLoggedIn
  | SignInRefused
  | UsernameChanged
  | MarketingPreferenceChanged
  | PasswordChanged
  | LeaderboardOptOutChanged
  | AccountErased;
export type EmailClaimEvent = EmailClaimed | EmailReleased;
export type GuestSessionEvent = GuestSessionClaimed | GuestErased;
export type PasswordResetEvent = PasswordResetRequested | PasswordResetUsed;
export type AccountsEvent = UserEvent | EmailClaimEvent | GuestSessionEvent | PasswordResetEvent;

export const accountsEventSchemas = {
  UserRegistered: userRegisteredSchema,
  UserLoggedIn: userLoggedInSchema,
  SignInRefused: signInRefusedSchema,
  UsernameChanged: usernameChangedSchema,
  MarketingPreferenceChanged: marketingPreferenceChangedSchema,
  PasswordChanged: passwordChangedSchema,
  LeaderboardOptOutChanged: leaderboardOptOutChangedSchema,
  AccountErased: accountErasedSchema,
  EmailClaimed: emailClaimedSchema,
  EmailReleased: emailReleasedSchema,
  GuestSessionClaimed: guestSessionClaimedSchema,
  PasswordResetRequested: passwordResetRequestedSchema,
  PasswordResetUsed: passwordResetUsedSchema,
  GuestErased: guestErasedSchema,
} as const;
