import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

// Probes hit these every few seconds; logging them at info would bury everything else.
const quietPaths = new Set(['/healthz', '/readyz']);

/** One log line per request, when it completes (method, path, status, time taken), instead of fastify's two. */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const path = request.url.split('?')[0] ?? '';
    const line = { method: request.method, path, status: reply.statusCode, ms: Math.round(reply.elapsedTime) };
    if (error || reply.statusCode >= 500) request.log.error({ ...line, err: error ?? undefined }, 'request');
    else if (quietPaths.has(path)) request.log.debug(line, 'request');
    else request.log.info(line, 'request');
  }
}
