import { hash, verify, type Algorithm } from '@node-rs/argon2';

/** Hashes and checks passwords; the only place that sees a password after validation. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(passwordHash: string, password: string): Promise<boolean>;
  /**
   * Spends the same time as `verify` on a hash nobody has, so a sign-in for an unknown email
   * takes as long as one with a wrong password.
   */
  verifyNobody(password: string): Promise<false>;
}

export interface Argon2Options {
  /** KiB; OWASP's argon2id minimum (19 MiB, 2 passes, 1 lane) by default. */
  memoryCost?: number;
  timeCost?: number;
  parallelism?: number;
}

// `Algorithm` is a const enum in the typings, which type stripping cannot inline.
const ARGON2ID = 2 as Algorithm.Argon2id;

export function argon2idHasher(options: Argon2Options = {}): PasswordHasher {
  const settings = {
    algorithm: ARGON2ID,
    memoryCost: options.memoryCost ?? 19_456,
    timeCost: options.timeCost ?? 2,
    parallelism: options.parallelism ?? 1,
  };
  // A hash of a password nobody knows, made once with the same settings as real ones.
  let nobody: Promise<string> | undefined;
  return {
    hash: (password) => hash(password, settings),
    async verify(passwordHash, password) {
      try {
        return await verify(passwordHash, password);
      } catch {
        return false; // not a hash we can read: no password matches it
      }
    },
    async verifyNobody(password) {
      nobody ??= hash(`nobody:${Math.random()}:${Date.now()}`, settings);
      await verify(await nobody, password);
      return false;
    },
  };
}
