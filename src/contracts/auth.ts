import { z } from 'zod';
import { cleanText } from './text.ts';

// The sign-in and registration rules of SPEC.md §5, shared by the server and the forms.

// A required text field: `missing` when absent or not text, `tooLong` past `max` characters.
const text = (missing: string, max: number, tooLong: string) => z.string({ error: missing }).max(max, tooLong);
const email = () => cleanText('line', text('Please enter a valid email', 255, 'Email must be at most 255 characters').trim().email('Please enter a valid email'));
const password = (schema: z.ZodString) => cleanText('secret', schema);

export const loginSchema = z.object({
  email: email(),
  password: password(text('Password must be at least 6 characters', 255, 'Password must be at most 255 characters').min(6, 'Password must be at least 6 characters')),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const registerSchema = z
  .object({
    first_name: cleanText('name', text('First name is required', 100, 'First name must be at most 100 characters').trim().min(2, 'First name is required')),
    last_name: cleanText('name', text('Last name is required', 100, 'Last name must be at most 100 characters').trim().min(2, 'Last name is required')),
    email: email(),
    phone: cleanText(
      'line',
      text('Phone number must be at least 10 digits', 50, 'Phone number must be at most 50 characters').trim().min(10, 'Phone number must be at least 10 digits'),
    ),
    password: password(
      text('Password must be at least 6 characters', 255, 'Password must be at most 255 characters')
        .min(6, 'Password must be at least 6 characters')
        .regex(/(?=.*[a-z])(?=.*[A-Z])/, 'Password must contain at least one uppercase and one lowercase letter'),
    ),
    password_confirmation: password(text('Passwords do not match', 255, 'Password must be at most 255 characters').min(6, 'Password must be at least 6 characters')),
    is_marketing_notifications_enabled: z.boolean({ error: 'Marketing notifications must be true or false' }).default(false),
  })
  .refine((v) => v.password === v.password_confirmation, {
    message: 'Passwords do not match',
    path: ['password_confirmation'],
  });
export type RegisterInput = z.input<typeof registerSchema>;
/** What the server works with once a registration body has been validated. */
export type RegisterRequest = z.output<typeof registerSchema>;

/** GET /api/user (SPEC.md §3 User). */
export const userSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  phone: z.string().nullable(),
  agsCardToken: z.string().nullable(),
});
export type User = z.infer<typeof userSchema>;

/** GET /api/session: who this browser is signed in as, null for a guest; always 200, so a guest's console stays quiet. */
export const sessionUserSchema = z.object({ user: userSchema.nullable() });
export type SessionUser = z.infer<typeof sessionUserSchema>;

/**
 * The token the built-in provider marks its accounts with (src/infra/provider/built-in-provider.ts): not a token of a
 * grading provider elsewhere, so such an account has no instant grades to sync.
 */
export const BUILT_IN_PROVIDER_TOKEN = 'built-in';

/** SPEC.md §5: Sync is disabled when the user has no provider token (issue 18: the built-in marker is none). */
export const hasProviderToken = (user: Pick<User, 'agsCardToken'> | null | undefined): boolean =>
  Boolean(user?.agsCardToken) && user?.agsCardToken !== BUILT_IN_PROVIDER_TOKEN;

/** GET /api/agscard/profile (SPEC.md §3 Provider profile). */
export const providerProfileSchema = z.object({
  id: z.string(),
  full_name: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  username: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  profile_image: z.string().nullable(),
  customer_number: z.string(),
  roles: z.array(z.object({ name: z.string() })),
  role: z.string(),
  stripe_id: z.string().nullable(),
  wallet: z.object({ balance: z.number() }),
  is_marketing_notifications_enabled: z.boolean(),
});
export type ProviderProfile = z.infer<typeof providerProfileSchema>;
