import type { LoginInput, ProviderProfile, RegisterRequest, User } from '../../contracts/auth.ts';
import type { EventMetadata } from '../event-store/types.ts';

/**
 * The grading provider behind accounts (DESIGN.md §2): the built-in one keeps local accounts; an
 * adapter for an external provider would call its API and record the same local user.
 * Address sync will join this port with its feature.
 */
export interface GradingProvider {
  readonly name: string;
  /** Creates the account. Refuses a taken email with AppError conflict `email_taken`. */
  register(input: RegisterRequest, metadata: EventMetadata): Promise<User>;
  /** Checks the credentials. Refuses a wrong password and an unknown email alike: unauthorized `invalid_credentials`. */
  login(input: LoginInput, metadata: EventMetadata): Promise<User>;
  /** The provider profile of a signed-in user (SPEC.md §3). */
  profile(userId: string): Promise<ProviderProfile>;
  /**
   * Cards the user graded instantly at the provider (SPEC.md §7 sync-instant-grades), as photos for our engine
   * to grade into the collection, and the message to show. Only for a user with a provider token (SPEC.md §6).
   */
  instantGrades(userId: string): Promise<InstantGrades>;
}

export interface InstantGrades {
  message: string;
  cards: { frontImageUrl: string; backImageUrl: string | null; cardType: string }[];
}

export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password';
