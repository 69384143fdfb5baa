import type { Redis } from 'ioredis';
import type { Clock } from '../clock/clock.ts';

/** At most `max` hits per key in a fixed window of `windowMs`. */
export interface RateLimit {
  max: number;
  windowMs: number;
}

export interface RateLimitResult {
  allowed: boolean;
  /** Hits in the current window, this one included. */
  count: number;
  /** Until the window ends; 0 when allowed. */
  retryAfterMs: number;
}

/** Who a per-caller limit counts: an account, or a guest by a hash of its address (no address kept in keys). */
export type LimitedCaller = { userId: string } | { addressHash: string };

/** The key a caller's hits of `action` are counted under in one window: the same in every process that counts them. */
export function callerLimitKey(action: string, caller: LimitedCaller, limit: RateLimit): string {
  return `${action}:${'userId' in caller ? `user:${caller.userId}` : `address:${caller.addressHash}`}:${limit.windowMs}`;
}

/** How long to wait, in words for a message: seconds under two minutes, minutes under two hours, else hours. */
export function waitInWords(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 120) return `${seconds} seconds`;
  if (seconds < 7_200) return `${Math.ceil(seconds / 60)} minutes`;
  return `${Math.ceil(seconds / 3_600)} hours`;
}

/** Counts attempts per key (an address, an account). Shared by every API process when it lives in Redis. */
export interface RateLimiter {
  hit(key: string, limit: RateLimit): Promise<RateLimitResult>;
  /** Forgets a key, for example an account's failed sign-ins once the right password is given. */
  reset(key: string): Promise<void>;
}

/** One process only: for the embedded mode without Redis. */
export function memoryRateLimiter(clock: Clock): RateLimiter {
  const windows = new Map<string, { count: number; endsAt: number }>();
  return {
    async hit(key, limit) {
      const now = clock.now().getTime();
      if (windows.size > 10_000) {
        for (const [k, w] of windows) if (w.endsAt <= now) windows.delete(k);
      }
      let window = windows.get(key);
      if (!window || window.endsAt <= now) {
        window = { count: 0, endsAt: now + limit.windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      return window.count <= limit.max ? { allowed: true, count: window.count, retryAfterMs: 0 } : { allowed: false, count: window.count, retryAfterMs: window.endsAt - now };
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}

// Increment and start the window in one step, so two processes never both see a fresh key.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}
`;

/** The connection states in which ioredis has no connection to send on: waiting to reconnect, closed, ended. */
const DISCONNECTED = new Set(['reconnecting', 'close', 'end']);

/**
 * Shared by every API process (REDIS_URL). `prefix` keeps tests and deployments apart. While Redis does not answer,
 * limits fail open (the call is let through and `onError` told), so an outage of the counters is not an outage of
 * sign-in and grading. Failing open is also fast (issue 34): while the connection is down, or for `coolOffMs` after
 * a call that failed, Redis is not asked at all, so a sign-in (three counts) does not wait out a command timeout
 * for each of them.
 */
export function redisRateLimiter(redis: Redis, prefix = 'rate-limit:', onError: (error: unknown) => void = () => {}, coolOffMs = 2_000): RateLimiter {
  let askAgainAt = 0;
  const unreachable = () => DISCONNECTED.has(redis.status) || Date.now() < askAgainAt;
  const failed = (error: unknown) => {
    askAgainAt = Date.now() + coolOffMs;
    onError(error);
  };
  return {
    async hit(key, limit) {
      if (unreachable()) return { allowed: true, count: 0, retryAfterMs: 0 };
      try {
        const [count, ttl] = (await redis.eval(HIT_SCRIPT, 1, prefix + key, String(limit.windowMs))) as [number, number];
        return count <= limit.max ? { allowed: true, count, retryAfterMs: 0 } : { allowed: false, count, retryAfterMs: Math.max(ttl, 0) };
      } catch (error) {
        failed(error);
        return { allowed: true, count: 0, retryAfterMs: 0 };
      }
    },
    async reset(key) {
      if (unreachable()) return;
      await redis.del(prefix + key).catch(failed);
    },
  };
}
