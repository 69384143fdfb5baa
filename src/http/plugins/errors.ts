import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ZodError } from 'zod';
import { AppError, type ErrorBody, type ErrorKind } from '../../contracts/errors.ts';

const statusByKind: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported: 415,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
};

/** The one error handler: domain errors to statuses, `{ error, code }` bodies, no internals on 5xx. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError | AppError | ZodError, request, reply) => {
    let status: number;
    let body: ErrorBody;
    if (error instanceof AppError) {
      status = statusByKind[error.kind];
      body = { error: error.message, code: error.code, ...(error.details === undefined ? {} : { details: error.details }) };
    } else if (error instanceof ZodError) {
      status = 400;
      const first = error.issues[0];
      body = { error: first?.message ?? 'Invalid request', code: 'invalid_request', details: error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) };
    } else if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      // fastify's own 4xx: malformed JSON, body too large, wrong content type, rate limit.
      status = error.statusCode;
      body = { error: error.message, code: (error.code ?? 'bad_request').toLowerCase() };
    } else {
      status = 500;
      body = { error: 'Something went wrong on our side. Please try again.', code: 'internal_error' };
    }
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: body.code, status }, 'request refused');
    return reply.status(status).send(body);
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ error: `No route for ${request.method} ${request.url.split('?')[0]}`, code: 'route_not_found' } satisfies ErrorBody);
  });
});
