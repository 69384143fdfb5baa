import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';

// The API's OpenAPI 3.1 document, generated from the zod contracts each route declares (src/http/route-docs.ts), at
// /api/openapi.json, and a page to read it at /api/docs. Registered before every route: @fastify/swagger learns the
// routes as they are added.

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PATH = '/api/docs';

/** A route as registered: for checking that the document lists every one (test/http/openapi.test.ts). */
export interface RegisteredRoute {
  method: string;
  url: string;
  /** Left out of the document on purpose: the web app's files, the document and its page. */
  hidden: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    registeredRoutes: readonly RegisteredRoute[];
  }
}

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (route) => {
    const hidden = Boolean((route.schema as { hide?: boolean } | undefined)?.hide) || route.url.startsWith(DOCS_PATH);
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, hidden });
  });

  // The schemas document; the handlers validate with the same zod schemas themselves (their refusals have the words
  // of SPEC.md), and answers are sent as the handlers built them.
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Card Grader API',
        version: '1',
        description:
          'Grading, collection, portfolio and feedback. Every answer that is not OK is `{ error, code }`: `error` is for people, `code` is stable. ' +
          'Sessions are an HttpOnly cookie (`sid`) that the server sets on the first call; state-changing calls must come from the site (Origin).',
      },
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'sid' }, metricsToken: { type: 'http', scheme: 'bearer' } },
      },
    },
    transform: createJsonSchemaTransform({ skipList: [OPENAPI_PATH, `${DOCS_PATH}/*`, DOCS_PATH] }),
    transformObject: createJsonSchemaTransformObject({}),
  });
}

/** The document and the page; after every route is registered they describe them all. */
export async function registerOpenApiRoutes(app: FastifyInstance): Promise<void> {
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) => reply.header('cache-control', 'no-cache').send(app.swagger()));
  await app.register(fastifySwaggerUi, { routePrefix: DOCS_PATH, uiConfig: { docExpansion: 'list', deepLinking: true } });
}
