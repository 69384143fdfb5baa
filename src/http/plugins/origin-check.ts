import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../contracts/errors.ts';

// Cross-site request forgery guard (DESIGN.md §6): a state-changing request must say where it
// comes from (Origin, or Referer when a browser leaves Origin out), and that must be this site
// (same host) or one of TRUSTED_ORIGINS. A request that says nothing is refused too.

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface OriginCheckOptions {
  /** Full origins, e.g. `https://cards.example.com`. */
  trustedOrigins: readonly string[];
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

/** The Host header as an origin would spell it: lower case, default port left out. */
function ownHost(request: FastifyRequest): string | null {
  try {
    return new URL(`${request.protocol}://${request.host}`).host;
  } catch {
    return null;
  }
}

export const originCheckPlugin = fp(
  async (app: FastifyInstance, options: OriginCheckOptions) => {
    const trusted = new Set(options.trustedOrigins.map((o) => o.replace(/\/+$/, '').toLowerCase()));
    app.addHook('onRequest', async (request) => {
      if (!STATE_CHANGING.has(request.method)) return;
      const origin = originOf(request);
      const allowed = origin !== null && (origin.host === ownHost(request) || trusted.has(origin.origin.toLowerCase()));
      if (!allowed) throw new AppError('forbidden', 'bad_origin', 'Cross-site request refused');
    });
  },
  { name: 'origin-check' },
);
