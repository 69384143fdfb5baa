import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ZodError } from 'zod';
import { AppError, type ErrorBody, type ErrorKind } from '../../contracts/errors.ts';
import { outageOf } from '../../infra/outage-errors.ts';
import { SECURITY_HEADERS_WITHOUT_HELMET } from './security-headers.ts';

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
  misdirected: 421,
  unavailable: 503,
};

// Refusals raised by fastify and its plugins before a handler runs, given stable codes and plain messages.
const knownRefusals: Record<string, { code: string; error?: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_json', error: 'The request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid_json', error: 'The request body is empty but says it is JSON.' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'too_large', error: 'The request body is too large.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'unsupported_media_type', error: 'This content type is not accepted here.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'invalid_request', error: 'The request body does not match its Content-Length.' },
  FST_ERR_VALIDATION: { code: 'invalid_request' },
  FST_REQ_FILE_TOO_LARGE: { code: 'too_large', error: 'The file is too large.' },
  FST_FILES_LIMIT: { code: 'too_large', error: 'Too many files in one request.' },
  FST_FIELDS_LIMIT: { code: 'too_large', error: 'Too many fields in one request.' },
  FST_PARTS_LIMIT: { code: 'too_large', error: 'Too many parts in one request.' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { code: 'unsupported_media_type', error: 'This request must be multipart/form-data.' },
  FST_MP_PREMATURE_CLOSE: { code: 'invalid_request', error: 'The upload ended before it was complete.' },
};

const codeByStatus: Record<number, string> = {
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  408: 'request_timeout',
  409: 'conflict',
  413: 'too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/** Maps anything thrown to a status and a `{ error, code }` body (SPEC.md §7); 5xx bodies never carry internals. */
export function toErrorResponse(error: unknown): { status: number; body: ErrorBody } {
  if (error instanceof AppError) {
    return {
      status: statusByKind[error.kind],
      body: { error: error.message, code: error.code, ...(error.details === undefined ? {} : { details: error.details }) },
    };
  }
  if (error instanceof ZodError) {
    const first = error.issues[0];
    return {
      status: 400,
      body: {
        error: first ? `${first.path.length > 0 ? `${first.path.join('.')}: ` : ''}${first.message}` : 'Invalid request',
        code: 'invalid_request',
        details: error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      },
    };
  }
  const { statusCode, code, message } = (error ?? {}) as Partial<FastifyError>;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    // fastify's and its plugins' own refusals: their messages are written for clients.
    const known = code ? knownRefusals[code] : undefined;
    return {
      status: statusCode,
      body: { error: known?.error ?? message ?? 'Bad request', code: known?.code ?? codeByStatus[statusCode] ?? 'bad_request' },
    };
  }
  // The database, Redis or the image folder stopped answering: a 503 saying which, not a 500.
  const outage = outageOf(error);
  if (outage) return { status: 503, body: { error: outage.message, code: outage.code } };
  return { status: 500, body: { error: 'Something went wrong on our side. Please try again.', code: 'internal_error' } };
}

// ── Refusals made before fastify has a request to hand to the error handler ───────────────────────────────────
// Node's HTTP parser refuses a request it cannot read (malformed, headers too large, too slow to arrive) on the socket
// itself, and fastify refuses a URL it cannot decode before routing. Both used to answer a body of their own
// (`{"error":"Bad Request","message":"Client Error","statusCode":400}`, or one that echoed the URL back) without the
// security headers: these answer `{ error, code }` with them, and never repeat what the client sent.

const parserRefusals: Record<string, { status: number; body: ErrorBody }> = {
  HPE_HEADER_OVERFLOW: { status: 431, body: { error: 'The request headers are too large.', code: 'headers_too_large' } },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, body: { error: 'The request took too long to arrive.', code: 'request_timeout' } },
};
const malformedRequest = { status: 400, body: { error: 'The request is not well-formed HTTP.', code: 'malformed_request' } };

/** A whole HTTP/1.1 answer, for a socket fastify has no reply object on; the connection is closed after it. */
export function rawAnswer(status: number, body: ErrorBody): string {
  const json = JSON.stringify(body);
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS_WITHOUT_HELMET,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(json)),
    connection: 'close',
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${lines.join('\r\n')}\r\n\r\n${json}`;
}

/** fastify's `clientErrorHandler`: the HTTP parser's refusals (and request deadlines: see app.ts) in the one shape. */
export function answerClientError(this: FastifyInstance, error: ConnectionError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, body } = parserRefusals[error.code] ?? malformedRequest;
  this.log.debug({ code: error.code, status }, 'request refused by the HTTP parser');
  // An answer whose headers already went out cannot be followed by another on the same socket: then only cut it.
  const answering = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !answering?.headersSent) socket.write(rawAnswer(status, body));
  socket.destroy();
}

/** fastify's `frameworkErrors`: a URL it cannot decode (FST_ERR_BAD_URL), or a path parameter past its length. */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const answer =
    error.code === 'FST_ERR_BAD_URL'
      ? { status: 400, body: { error: 'The URL is not well-formed.', code: 'bad_url' } }
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? { status: 414, body: { error: 'The URL is too long.', code: 'url_too_long' } }
        : toErrorResponse(error);
  // Routing has not happened, so no hook has run: the security headers are set here.
  void reply.headers(SECURITY_HEADERS_WITHOUT_HELMET).status(answer.status).send(answer.body);
}

/** The one error handler: every refusal and every bug answers `{ error, code }`. */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    // `Expect:` other than 100-continue: Node answers 417 itself, empty and without the security headers, unless
    // someone listens.
    app.server.on('checkExpectation', (_request, response) => {
      const body: ErrorBody = { error: 'The Expect header asks for something this server does not do.', code: 'expectation_failed' };
      const json = JSON.stringify(body);
      response.writeHead(417, { ...SECURITY_HEADERS_WITHOUT_HELMET, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json), connection: 'close' });
      response.end(json);
    });
    app.setErrorHandler((error, request, reply) => {
      const { status, body } = toErrorResponse(error);
      if (status >= 500) request.log.error({ err: error }, 'request failed');
      if (status === 503) reply.header('retry-after', '5');
      else request.log.info({ code: body.code, status }, 'request refused');
      return reply.status(status).send(body);
    });
  },
  { name: 'errors' },
);
