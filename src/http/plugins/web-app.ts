import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ErrorBody } from '../../contracts/errors.ts';

export interface WebAppOptions {
  /** The built web app (`vite build` output). */
  distDir: string;
}

/** A browser asking for a page (not the API, not a file): it gets the app, whose router shows the route. */
function wantsAppPage(request: FastifyRequest): boolean {
  const pathname = request.url.split('?')[0] ?? '/';
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    !pathname.startsWith('/api/') &&
    pathname !== '/api' &&
    (request.headers.accept ?? '').includes('text/html')
  );
}

/**
 * Serves the built web app and answers every unmatched request: the app's index.html for page
 * requests (client routes such as /collection), a `{ error, code }` 404 for everything else.
 * Registered last, after every route.
 */
export const webAppPlugin = fp(
  async (app: FastifyInstance, options: WebAppOptions) => {
    const root = path.resolve(options.distDir);
    const built = fs.existsSync(path.join(root, 'index.html'));
    if (built) {
      // The API's paths are never files: an unknown one gets the API's 404 before the static files look at it,
      // whatever its shape or length (a 10,000-character name would otherwise be a 403 from the file system).
      app.addHook('onRoute', (route) => {
        if (route.url !== '/*') return;
        const own = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
        route.onRequest = [
          async (request: FastifyRequest, reply: FastifyReply) => {
            if (!request.url.startsWith('/api/')) return;
            reply.callNotFound();
            return reply;
          },
          ...own,
        ];
      });
      await app.register(fastifyStatic, {
        root,
        // Vite fingerprints everything under assets/, so those never change; index.html always can.
        setHeaders(reply, filePath) {
          const immutable = filePath.startsWith(path.join(root, 'assets') + path.sep);
          reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
        cacheControl: false,
        // The build wrote .br and .gz beside each text file (web/precompress.ts): sent as they are to browsers that
        // take them, with Vary: Accept-Encoding.
        preCompressed: true,
      });
    } else {
      app.log.warn({ distDir: root }, 'the web app is not built (npm run build); serving the API only');
    }

    app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
      if (wantsAppPage(request)) {
        if (built) return reply.header('cache-control', 'no-cache').sendFile('index.html');
        return reply
          .status(503)
          .send({ error: 'The web app is not built yet. Run npm run build, or npm start, which builds it.', code: 'web_app_not_built' } satisfies ErrorBody);
      }
      // The URL is not repeated back: nothing a client sent is echoed in an answer.
      return reply.status(404).send({ error: 'There is no such route.', code: 'route_not_found' } satisfies ErrorBody);
    });
  },
  { name: 'web-app' },
);
