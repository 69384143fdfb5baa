import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { callerLimitKey, waitInWords, type RateLimit, type RateLimiter } from '../infra/auth/rate-limiter.ts';

// Limits per caller for costly or spammable calls: per account for a signed-in user, per client address (hashed, so
// no address is kept in the limiter's keys) for a guest. Every window must allow the call.

export interface CallerLimits {
  user: readonly RateLimit[];
  guest: readonly RateLimit[];
}

/** Counts the call; when a window is full, sets Retry-After and returns how long to wait in words, else null. */
export async function hitCallerLimits(
  rateLimiter: RateLimiter,
  action: string,
  limits: CallerLimits,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<string | null> {
  const { userId } = request.session;
  const caller = userId ? { userId } : { addressHash: createHash('sha256').update(request.ip).digest('hex') };
  for (const rule of userId ? limits.user : limits.guest) {
    const { allowed, retryAfterMs } = await rateLimiter.hit(callerLimitKey(action, caller, rule), rule);
    if (allowed) continue;
    reply.header('retry-after', String(Math.ceil(retryAfterMs / 1000)));
    return waitInWords(retryAfterMs);
  }
  return null;
}
