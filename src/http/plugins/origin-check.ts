import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../contracts/errors.ts';
import { requestHost } from './allowed-hosts.ts';

// Cross-site request forgery guard (DESIGN.md §6): a state-changing request must say where it
// comes from (Origin, or Referer when a browser leaves Origin out), and that must be this site or one of
// TRUSTED_ORIGINS. This site is PUBLIC_ORIGIN when it is set (issue 34: compared as configured, never against the
// Host the request claims); unset, the request's own Host, which ./allowed-hosts.ts has checked is one of the
// server's loopback names. A request that says nothing is refused too.

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface OriginCheckOptions {
  /** PUBLIC_ORIGIN: the origins the app is reached at; empty for the loopback default. */
  publicOrigins: readonly string[];
  /** Full origins, e.g. `https://partner.example.com`. */
  trustedOrigins: readonly string[];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** True when the request's Origin (or Referer) is this site or a trusted one. */
    isAllowedOrigin(request: FastifyRequest): boolean;
  }
}

function originOf(request: FastifyRequest): URL | null {
  const claimed = request.headers.origin || request.headers.referer;
  if (!claimed || claimed === 'null') return null;
  try {
    return new URL(claimed);
  } catch {
    return null;
  }
}

export const originCheckPlugin = fp(
  async (app: FastifyInstance, options: OriginCheckOptions) => {
    const allowedOrigins = new Set([...options.publicOrigins, ...options.trustedOrigins].map((o) => o.replace(/\/+$/, '').toLowerCase()));
    const isAllowedOrigin = (request: FastifyRequest) => {
      const origin = originOf(request);
      if (origin === null) return false;
      if (allowedOrigins.has(origin.origin.toLowerCase())) return true;
      return options.publicOrigins.length === 0 && origin.host === requestHost(request);
    };
    app.decorate('isAllowedOrigin', isAllowedOrigin);
    app.addHook('onRequest', async (request) => {
      if (!STATE_CHANGING.has(request.method)) return;
      if (!isAllowedOrigin(request)) throw new AppError('forbidden', 'bad_origin', 'Cross-site request refused');
    });
  },
  { name: 'origin-check' },
);
