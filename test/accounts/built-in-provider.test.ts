import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/contracts/errors.ts';
import { argon2idHasher, type PasswordHasher } from '../../src/infra/auth/password-hasher.ts';
import { systemClock, randomIds } from '../../src/infra/clock/clock.ts';
import { createEventStore, type EventMetadata } from '../../src/infra/event-store/index.ts';
import { builtInProvider } from '../../src/infra/provider/built-in-provider.ts';
import { inlineProjections } from '../../src/projections/index.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

// An unknown email must cost a real argon2id verification, like a wrong password does, so the
// answer's timing does not tell which emails have accounts. Counted here rather than timed:
// timings on a shared machine are noise.
function countingHasher(inner: PasswordHasher) {
  const calls = { verify: 0, verifyNobody: 0 };
  const hasher: PasswordHasher = {
    hash: (password) => inner.hash(password),
    verify: (hash, password) => {
      calls.verify++;
      return inner.verify(hash, password);
    },
    verifyNobody: (password) => {
      calls.verifyNobody++;
      return inner.verifyNobody(password);
    },
  };
  return { hasher, calls };
}

const metadata: EventMetadata = { actor: { kind: 'system', id: 'test' }, commandId: 'test', timestamp: '2026-11-21T00:00:00.000Z' };

describe('built-in provider sign-in', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
  });
  afterAll(() => database.destroy());

  it('spends one argon2id verification on an unknown email, as on a wrong password, and answers alike', async () => {
    const { hasher, calls } = countingHasher(argon2idHasher({ memoryCost: 4096, timeCost: 1 }));
    const store = createEventStore(database, { inline: inlineProjections });
    const provider = builtInProvider({ store, db: database.db, hasher, clock: systemClock, ids: randomIds });
    await provider.register(
      {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        phone: '5551234567',
        password: 'Secret123',
        password_confirmation: 'Secret123',
        is_marketing_notifications_enabled: false,
      },
      metadata,
    );

    const wrong = await provider.login({ email: 'ada@example.com', password: 'Wrong123' }, metadata).catch((e: unknown) => e);
    expect(calls).toEqual({ verify: 1, verifyNobody: 0 });
    const unknown = await provider.login({ email: 'nobody@example.com', password: 'Wrong123' }, metadata).catch((e: unknown) => e);
    expect(calls).toEqual({ verify: 1, verifyNobody: 1 });

    for (const error of [wrong, unknown]) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('invalid_credentials');
    }
    expect((unknown as AppError).message).toBe((wrong as AppError).message);
  });
});
