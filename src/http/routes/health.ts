import { sql } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { ErrorBody } from '../../contracts/errors.ts';
import type { RouteOptions } from '../app.ts';
import { routeDocs } from '../route-docs.ts';

const CHECK_TIMEOUT_MS = 2_000;

async function check(probe: () => Promise<unknown>): Promise<'ok' | string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS))),
    ]);
    return 'ok';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}

/** /healthz: the process answers (liveness). /readyz: the database, the job queue and the image store answer too (readiness). */
export const healthRoutes: FastifyPluginAsync<RouteOptions> = async (app, { runtime }) => {
  app.get('/healthz', { schema: routeDocs({ summary: 'The process answers (liveness)', tags: ['operations'], responses: { 200: z.object({ status: z.literal('ok') }) }, noSession: true }, 'GET') }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: routeDocs({ summary: 'The database, the job queue and the image store answer (readiness)', tags: ['operations'], responses: { 200: z.object({ status: z.literal('ready'), database: z.literal('ok'), queue: z.literal('ok'), images: z.literal('ok') }) }, errors: [503], noSession: true }, 'GET') }, async (request, reply) => {
    const [database, queue, images] = await Promise.all([
      check(() => sql`select 1`.execute(runtime.database.db)),
      check(() => runtime.queue.ping()),
      check(() => runtime.imageStore.ping()),
    ]);
    if (database === 'ok' && queue === 'ok' && images === 'ok') return { status: 'ready', database, queue, images };
    const down = [database === 'ok' ? undefined : 'the database', queue === 'ok' ? undefined : 'the job queue', images === 'ok' ? undefined : 'the image store'].filter(Boolean);
    request.log.warn({ database, queue, images }, 'not ready');
    // The reason stays in the log; the body says only which piece is down.
    const error = `Not ready: ${down.length > 1 ? `${down.slice(0, -1).join(', ')} and ${down.at(-1)}` : down[0]} ${down.length > 1 ? 'do' : 'does'} not answer.`;
    return reply.status(503).send({ error, code: 'not_ready' } satisfies ErrorBody);
  });
};
