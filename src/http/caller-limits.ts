import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimit, RateLimiter } from '../infra/auth/rate-limiter.ts';

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
  const key = userId ? `${action}:user:${userId}` : `${action}:address:${createHash('sha256').update(request.ip).digest('hex')}`;
  for (const rule of userId ? limits.user : limits.guest) {
    const { allowed, retryAfterMs } = await rateLimiter.hit(`${key}:${rule.windowMs}`, rule);
    if (allowed) continue;
    const seconds = Math.ceil(retryAfterMs / 1000);
    reply.header('retry-after', String(seconds));
    return seconds < 120 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
  }
  return null;
}
