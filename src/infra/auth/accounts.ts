import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { Clock, IdGenerator } from '../clock/clock.ts';
import type { Database } from '../database/database.ts';
import type { EventStore } from '../event-store/types.ts';
import { builtInProvider } from '../provider/built-in-provider.ts';
import type { GradingProvider } from '../provider/types.ts';
import { argon2idHasher } from './password-hasher.ts';
import { memoryRateLimiter, redisRateLimiter, type RateLimit, type RateLimiter } from './rate-limiter.ts';

/** What the sign-in and registration routes need at run time (sessions are the session plugin's). */
export interface Accounts {
  provider: GradingProvider;
  rateLimiter: RateLimiter;
  limits: {
    perAddress: RateLimit;
    perAccount: RateLimit;
    /** Grading, per client address for guests and per account for users: each window must allow it. */
    gradingGuest: RateLimit[];
    gradingUser: RateLimit[];
    /** The day's window of `gradingUser`: bulk-import rows count against it too (the queue paces them, not the minute's). */
    gradingUserPerDay: RateLimit;
    /** Feedback, the same way. */
    feedbackGuest: RateLimit[];
    feedbackUser: RateLimit[];
    /** Restoring the sample cards (five gradings), the same way. */
    sampleCardsGuest: RateLimit[];
    sampleCardsUser: RateLimit[];
    /** An order's quote, the same way. */
    quoteGuest: RateLimit[];
    quoteUser: RateLimit[];
  };
  close(): Promise<void>;
}

export interface AccountsServices {
  config: Config;
  logger: Pick<Logger, 'warn'>;
  database: Database;
  eventStore: EventStore;
  clock: Clock;
  ids: IdGenerator;
}

export function createAccounts(services: AccountsServices): Accounts {
  const { config, database, eventStore, clock, ids, logger } = services;
  const hasher = argon2idHasher();
  // With Redis every API process shares the counters; without it, one process is all there is.
  // Bounded: a Redis that does not answer costs a call at most a second, then the limit fails open.
  const gradingUserPerDay = { max: config.GRADE_LIMIT_USER_PER_DAY, windowMs: 86_400_000 };
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2, commandTimeout: 1_000 }) : undefined;
  redis?.on('error', (error) => logger.warn({ err: error }, 'auth rate-limit redis error'));
  return {
    provider: builtInProvider({ store: eventStore, db: database.db, hasher, clock, ids }),
    rateLimiter: redis
      ? redisRateLimiter(redis, `${config.QUEUE_PREFIX}:limits:`, (error) => logger.warn({ err: error }, 'rate limit not counted: redis did not answer; the call goes through'))
      : memoryRateLimiter(clock),
    limits: {
      perAddress: { max: config.AUTH_RATE_LIMIT_PER_ADDRESS, windowMs: config.AUTH_RATE_LIMIT_PER_ADDRESS_WINDOW_SECONDS * 1000 },
      perAccount: { max: config.AUTH_RATE_LIMIT_PER_ACCOUNT, windowMs: config.AUTH_RATE_LIMIT_PER_ACCOUNT_WINDOW_SECONDS * 1000 },
      gradingGuest: [
        { max: config.GRADE_LIMIT_GUEST_PER_MINUTE, windowMs: 60_000 },
        { max: config.GRADE_LIMIT_GUEST_PER_DAY, windowMs: 86_400_000 },
      ],
      gradingUser: [{ max: config.GRADE_LIMIT_USER_PER_MINUTE, windowMs: 60_000 }, gradingUserPerDay],
      gradingUserPerDay,
      feedbackGuest: [{ max: config.FEEDBACK_LIMIT_GUEST_PER_HOUR, windowMs: 3_600_000 }],
      feedbackUser: [{ max: config.FEEDBACK_LIMIT_USER_PER_HOUR, windowMs: 3_600_000 }],
      sampleCardsGuest: [{ max: config.SAMPLE_CARDS_LIMIT_GUEST_PER_HOUR, windowMs: 3_600_000 }],
      sampleCardsUser: [{ max: config.SAMPLE_CARDS_LIMIT_USER_PER_HOUR, windowMs: 3_600_000 }],
      quoteGuest: [{ max: config.QUOTE_LIMIT_GUEST_PER_MINUTE, windowMs: 60_000 }],
      quoteUser: [{ max: config.QUOTE_LIMIT_USER_PER_MINUTE, windowMs: 60_000 }],
    },
    async close() {
      if (!redis) return;
      if (redis.status === 'wait') redis.disconnect(); // never connected
      else await redis.quit().catch(() => redis.disconnect());
    },
  };
}
