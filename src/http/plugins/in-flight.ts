import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { ErrorBody } from '../../contracts/errors.ts';

// Requests in flight, so shutdown can answer the ones that outlast its bound (an upload still arriving, a grading
// still running) with a clear 503 instead of cutting their connections (issue 15).

declare module 'fastify' {
  interface FastifyInstance {
    /** Answers every request still in flight with 503 `shutting_down`; returns how many. */
    refuseInFlight(): number;
  }
}

export const inFlightPlugin = fp(
  async (app: FastifyInstance) => {
    const inFlight = new Set<FastifyReply>();
    app.addHook('onRequest', async (_request, reply) => void inFlight.add(reply));
    app.addHook('onResponse', async (_request, reply) => void inFlight.delete(reply));
    app.addHook('onRequestAbort', async (request) => {
      for (const reply of inFlight) if (reply.request === request) inFlight.delete(reply);
    });
    app.decorate('refuseInFlight', () => {
      let refused = 0;
      for (const reply of inFlight) {
        inFlight.delete(reply);
        if (reply.sent || reply.raw.headersSent) continue;
        refused++;
        reply
          .status(503)
          .header('connection', 'close')
          .header('retry-after', '5')
          .send({ error: 'The server is restarting. Please try again in a moment.', code: 'shutting_down' } satisfies ErrorBody);
      }
      return refused;
    });
  },
  { name: 'in-flight' },
);
