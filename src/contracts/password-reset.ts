import { z } from 'zod';
import { registerSchema } from './auth.ts';
import { cleanText } from './text.ts';

// "Forgot password?" (issue 35): ask for a link by email, then choose a new password through it. Shared by the
// server and the pages, so both say the same thing.

/** How long an emailed link works. */
export const RESET_LINK_TTL_MS = 60 * 60 * 1000;

export const passwordResetMessages = {
  /** The same answer whether or not an account uses the address: the form must not tell who has an account. */
  requested: "If an account uses that email, we've sent it a link to choose a new password. The link works once, within an hour. Check your spam folder if it doesn't arrive in a few minutes.",
  done: 'Your password has been changed and every device signed out. Sign in with your new password.',
  expired: 'This reset link has expired: links work for one hour. Ask for a new one below.',
  used: 'This reset link has already been used. Ask for a new one if you still need to reset your password.',
  superseded: 'This reset link no longer works: your password was changed after it was sent. Ask for a new one if you still need to reset it.',
  invalid: 'This reset link is not valid. Check that you opened the whole link from the email, or ask for a new one.',
} as const;

export const resetLinkErrorCodes = { expired: 'reset_link_expired', used: 'reset_link_used', superseded: 'reset_link_superseded', invalid: 'reset_link_invalid' } as const;

const registration = registerSchema.shape;

/** POST /api/password-reset: the email only, validated as at sign-in. */
export const passwordResetRequestSchema = z.object({ email: registration.email });
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

/** The link's token: 32 random bytes in base64url (43 characters). */
const token = cleanText('line', z.string({ error: passwordResetMessages.invalid }).max(200, passwordResetMessages.invalid).min(1, passwordResetMessages.invalid));

/** POST /api/password-reset/check: whether a link still works, before the page asks for a password. */
export const passwordResetCheckSchema = z.object({ token });
/** superseded: the password changed after the link was sent (another link, or Settings), so it no longer works. */
export const passwordResetCheckResponseSchema = z.object({ status: z.enum(['valid', 'expired', 'used', 'superseded', 'invalid']) });
export type PasswordResetLinkStatus = z.infer<typeof passwordResetCheckResponseSchema>['status'];

const passwordsMatch = { message: 'Passwords do not match', path: ['password_confirmation'] };
const newPasswordFields = { password: registration.password, password_confirmation: registration.password_confirmation };

/** The "Choose a new password" form: registration's rules (SPEC.md §5). */
export const newPasswordSchema = z.object(newPasswordFields).refine((v) => v.password === v.password_confirmation, passwordsMatch);
export type NewPasswordInput = z.infer<typeof newPasswordSchema>;

/** POST /api/password-reset/confirm: the link's token and the new password. */
export const passwordResetConfirmSchema = z.object({ token, ...newPasswordFields }).refine((v) => v.password === v.password_confirmation, passwordsMatch);
export type PasswordResetConfirmInput = z.infer<typeof passwordResetConfirmSchema>;
