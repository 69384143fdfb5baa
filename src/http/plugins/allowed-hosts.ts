import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../contracts/errors.ts';

// Allowed hosts (issue 34, DNS rebinding): a page on an attacker's name that resolves to 127.0.0.1 reaches a server
// bound there with its own name in Host and Origin, so "Origin is the same as Host" let it through. Now the Host must
// be one the app is reached at: PUBLIC_ORIGIN's hosts, or (unset) this server's own loopback names on the port it
// listens on. Anything else is a 421 before any route runs. The probes answer whatever the Host (an orchestrator asks
// by the pod's address, and they say nothing but "up").

/** Loopback names the embedded default is reached at. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const PROBES = new Set(['/healthz', '/readyz']);

export interface AllowedHostsOptions {
  /** PUBLIC_ORIGIN's origins; empty for the loopback default. */
  publicOrigins: readonly string[];
}

/** The request's Host as an origin spells it (lower case, default port left out), or null when it is not a host. */
export function requestHost(request: FastifyRequest): string | null {
  try {
    return new URL(`${request.protocol}://${request.host}`).host;
  } catch {
    return null;
  }
}

export const allowedHostsPlugin = fp(
  async (app: FastifyInstance, { publicOrigins }: AllowedHostsOptions) => {
    const configured = new Set(publicOrigins.map((origin) => new URL(origin).host));
    /** The loopback default: the names on the port this server listens on (any port before it listens: inject). */
    const loopbackAllowed = (host: string) => {
      const address = app.server.address() as AddressInfo | null;
      if (!address || typeof address === 'string') return LOOPBACK_NAMES.some((name) => host === name || host.startsWith(`${name}:`));
      return LOOPBACK_NAMES.some((name) => host === `${name}:${address.port}` || (address.port === 80 && host === name));
    };
    const allowed = (host: string | null) => host !== null && (configured.size > 0 ? configured.has(host) : loopbackAllowed(host));

    app.addHook('onRequest', async (request) => {
      if (PROBES.has(request.url.split('?')[0]!)) return;
      if (!allowed(requestHost(request))) throw new AppError('misdirected', 'unknown_host', 'This server does not answer for that host name.');
    });
  },
  { name: 'allowed-hosts' },
);
