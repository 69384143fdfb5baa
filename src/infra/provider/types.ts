import type { LoginInput, ProviderProfile, RegisterRequest, User } from '../../contracts/auth.ts';
import type { EventMetadata } from '../event-store/types.ts';

/**
 * The grading provider behind accounts (DESIGN.md §2): the built-in one keeps local accounts; an
 * adapter for an external provider would call its API and record the same local user.
 * Address and instant-grade sync will join this port with their features.
 */
export interface GradingProvider {
  readonly name: string;
  /** Creates the account. Refuses a taken email with AppError conflict `email_taken`. */
  register(input: RegisterRequest, metadata: EventMetadata): Promise<User>;
  /** Checks the credentials. Refuses a wrong password and an unknown email alike: unauthorized `invalid_credentials`. */
  login(input: LoginInput, metadata: EventMetadata): Promise<User>;
  /** The provider profile of a signed-in user (SPEC.md §3). */
  profile(userId: string): Promise<ProviderProfile>;
}

export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password';
