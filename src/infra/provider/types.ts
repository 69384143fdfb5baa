import type { AccountSettings, ChangePasswordInput } from '../../contracts/account.ts';
import type { AddressSyncResult } from '../../contracts/addresses.ts';
import type { LoginInput, ProviderProfile, RegisterRequest, User } from '../../contracts/auth.ts';
import type { ServiceLevelTerms } from '../../domain/orders/service-levels.ts';
import type { EventMetadata } from '../event-store/types.ts';

/**
 * The grading provider behind accounts (DESIGN.md §2): the built-in one keeps local accounts; an
 * adapter for an external provider would call its API and record the same local user.
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
  /** What Settings shows and whether its tabs change things here (managedHere) or point to the provider. */
  accountSettings(userId: string): Promise<AccountSettings>;
  /** Only where managedHere; an external provider refuses with a pointer to its own site. */
  setMarketingPreference(userId: string, enabled: boolean, metadata: EventMetadata): Promise<void>;
  /** Settings: leave the public leaderboard (true) or come back to it. */
  setLeaderboardOptOut(userId: string, optedOut: boolean, metadata: EventMetadata): Promise<void>;
  /** Throws `wrong_current_password` unless this is the account's password (before erasing it). */
  verifyPassword(userId: string, password: string): Promise<void>;
  /** Checks the current password (unauthorized `wrong_current_password`), then records the new one's hash. */
  changePassword(userId: string, input: ChangePasswordInput, metadata: EventMetadata): Promise<void>;
  /**
   * Through an emailed reset link (issue 35): spends the link (refused when unknown, used or expired:
   * `reset_link_*`) and records the new password's hash. Returns the account's id, for signing it out everywhere.
   */
  resetPassword(token: string, password: string, metadata: EventMetadata): Promise<{ userId: string }>;
  /** Addresses kept at the provider, copied into the address book (SPEC.md §7 sync-ags-addresses). */
  syncAddresses(userId: string, metadata: EventMetadata): Promise<AddressSyncResult>;
  /** SPEC.md §3 Service level: what the provider grades at, for how much. */
  serviceLevels(): Promise<readonly ServiceLevelTerms[]>;
  /** SPEC.md §3 order payload, handed over once the order is placed; the provider's order id when it gives one. */
  submitOrder(userId: string, payload: OrderPayload): Promise<{ providerOrderId: string | null }>;
}

/** SPEC.md §3 Order payload, money as decimal strings. */
export interface OrderPayload {
  service_level: string;
  shipping_address_id: string;
  card_cleaning: boolean;
  subgrades_report: boolean;
  height_map: boolean;
  require_signature: boolean;
  custom_shipping_box: boolean;
  slab_cards: boolean;
  cards: { card_name: string; card_set: string | null; card_number: string | null; card_year: string | null; quantity: number; declared_value: string }[];
  notes: string | null;
  total_declared_value: string;
  service_fee: string;
  shipping_fee: string;
  insurance_fee: string;
  total_amount: string;
}

export interface InstantGrades {
  message: string;
  cards: { frontImageUrl: string; backImageUrl: string | null; cardType: string }[];
}

export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password';
