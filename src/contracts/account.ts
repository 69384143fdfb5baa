import { z } from 'zod';
import { cleanText } from './text.ts';

// Settings (SPEC.md §2): what the General, Notifications and Security tabs read and change. Where the provider
// keeps accounts elsewhere, `managedHere` is false and the tabs point to the provider instead.

export const accountSettingsSchema = z.object({
  username: z.string(),
  email: z.string(),
  provider: z.object({
    name: z.string(),
    /** True for the built-in provider: the marketing preference and password change here. */
    managedHere: z.boolean(),
  }),
  is_marketing_notifications_enabled: z.boolean(),
  /** Left out of the public Top Graders leaderboard. */
  leaderboard_opt_out: z.boolean(),
});
export type AccountSettings = z.infer<typeof accountSettingsSchema>;

export const marketingPreferenceSchema = z.object({
  is_marketing_notifications_enabled: z.boolean({ error: 'Marketing notifications must be true or false' }),
});
export type MarketingPreferenceInput = z.infer<typeof marketingPreferenceSchema>;

export const leaderboardOptOutSchema = z.object({
  leaderboard_opt_out: z.boolean({ error: 'Leaderboard opt-out must be true or false' }),
});
export type LeaderboardOptOutInput = z.infer<typeof leaderboardOptOutSchema>;

const passwordText = (missing: string) => z.string({ error: missing }).max(255, 'Password must be at most 255 characters');

/** SPEC.md §5's password rules for the new password, as at registration. */
export const changePasswordSchema = z
  .object({
    current_password: cleanText('secret', passwordText('Current password is required').min(1, 'Current password is required')),
    password: cleanText(
      'secret',
      passwordText('Password must be at least 6 characters')
        .min(6, 'Password must be at least 6 characters')
        .regex(/(?=.*[a-z])(?=.*[A-Z])/, 'Password must contain at least one uppercase and one lowercase letter'),
    ),
    password_confirmation: cleanText('secret', passwordText('Passwords do not match')),
  })
  .refine((v) => v.password === v.password_confirmation, { message: 'Passwords do not match', path: ['password_confirmation'] })
  .refine((v) => v.password !== v.current_password, { message: 'The new password must differ from the current one', path: ['password'] });
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/** Settings, Security, Delete my account: the password again, so a session left open cannot erase the account. */
export const deleteAccountSchema = z.object({
  password: cleanText('secret', passwordText('Password is required').min(1, 'Password is required')),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;

export const accountDeletedSchema = z.object({ message: z.string() });

/** The texts of Delete my account and Download my data (Settings, Security). */
export const personalDataMessages = {
  deleteTitle: 'Delete my account',
  deleteDescription:
    'Your account, your name, email, phone, addresses and the photos only you uploaded are deleted for good. Cards, grades and orders are kept for our records without your name.',
  deleteConfirm: 'Delete my account',
  deletePending: 'Deleting...',
  deleted: { title: 'Account Deleted', description: 'Your account and your personal data have been deleted.' },
  deleteFailed: 'Failed to delete your account',
  downloadTitle: 'Download my data',
  downloadDescription: 'A zip file with everything recorded about you, as JSON, and your photos.',
  downloadButton: 'Download my data',
  downloadPending: 'Preparing...',
  downloadFailed: 'Failed to download your data. Please try again.',
  leaderboardTitle: 'Show me on the leaderboard',
  leaderboardDescription: 'Your username and card count appear in Top Graders on the home page.',
  leaderboardUpdated: 'Leaderboard preference updated',
} as const;
