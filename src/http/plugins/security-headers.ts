import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

// What every answer says to the browser (issue 15), the API's, the images', the web app's and the refusals' alike.
// helmet, configured rather than defaulted:
// - A Content-Security-Policy the built web app runs under: scripts only from this origin (no inline script, no eval),
//   pictures from here, the blob:/data: previews of a photo being chosen and the web URLs portfolio cards name, fetches and the /ws socket to this origin
//   ('self' covers ws: and wss: to the same host in CSP3), no plugins, no <base> or form posts elsewhere, and no page
//   may frame this one (frame-ancestors 'none', X-Frame-Options DENY for older browsers). Styles keep
//   'unsafe-inline': Radix's dialogs and scroll lock write <style> elements; a style cannot run code.
// - X-Content-Type-Options: nosniff on everything (stored images go out with their stored type).
// - Referrer-Policy strict-origin-when-cross-origin, Cross-Origin-Opener-Policy same-origin,
//   Cross-Origin-Resource-Policy same-origin.
// - Strict-Transport-Security only on answers to requests that came over HTTPS (directly, or through a trusted proxy
//   that said so): a browser that reached the server over plain HTTP (development, loopback) is never pinned to HTTPS.

export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  // Portfolio cards show pictures from the URLs their owners gave (any web host); a picture runs no code.
  'img-src': ["'self'", 'blob:', 'data:', 'https:', 'http:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'worker-src': ["'self'", 'blob:'],
  'manifest-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
} as const;

export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

/**
 * The headers helmet (configured below) puts on every answer, for the few answers written before fastify has a
 * request to run hooks for: the HTTP parser's refusals (400, 408, 431) and 417 (../plugins/errors.ts). A test
 * holds them equal to helmet's.
 */
export const SECURITY_HEADERS_WITHOUT_HELMET: Readonly<Record<string, string>> = {
  'content-security-policy': Object.entries(CONTENT_SECURITY_POLICY)
    .map(([directive, sources]) => `${directive} ${sources.join(' ')}`)
    .join(';'),
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

export const securityHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(fastifyHelmet, {
      global: true,
      contentSecurityPolicy: { useDefaults: false, directives: Object.fromEntries(Object.entries(CONTENT_SECURITY_POLICY).map(([k, v]) => [k, [...v]])) },
      crossOriginOpenerPolicy: { policy: 'same-origin' },
      crossOriginResourcePolicy: { policy: 'same-origin' },
      crossOriginEmbedderPolicy: false,
      originAgentCluster: true,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      frameguard: { action: 'deny' },
      noSniff: true,
      // Set below, only over HTTPS.
      strictTransportSecurity: false,
      xDnsPrefetchControl: { allow: false },
      xDownloadOptions: true,
      xPermittedCrossDomainPolicies: { permittedPolicies: 'none' },
      xXssProtection: true,
      xPoweredBy: true,
    });
    app.addHook('onRequest', async (request, reply) => {
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS_VALUE);
    });
  },
  { name: 'security-headers' },
);
