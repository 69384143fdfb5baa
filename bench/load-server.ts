// The server under `npm run bench:load`, in a process of its own (so the load generator does not share its CPU
// time or event loop): the real app listening on loopback, over a scratch PostgreSQL schema (PGlite when PostgreSQL
// is not reachable), in production mode. Tells its parent the port, and whenever asked its memory and how late its
// event loop ran since the last time asked (what a read waits behind).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { migrateToLatest, openPglite } from '../src/infra/database/index.ts';
import { cpuByThread, postgresReachable, startServer, withPostgresSchema, type Server } from './http-load.ts';

const send = (message: unknown) => process.send!(message);

async function serve(engine: string, server: Server): Promise<void> {
  send({ type: 'ready', port: server.port, engine, cpuThreads: server.runtime.cpuPool.size });
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  await new Promise<void>((resolve) => {
    process.on('message', (message: { type: string }) => {
      if (message.type === 'memory') {
        const ms = (ns: number) => Math.round(ns / 1e6);
        const eventLoopDelay = { p50: ms(loopDelay.percentile(50)), p99: ms(loopDelay.percentile(99)), max: ms(loopDelay.max) };
        global.gc?.();
        send({ type: 'memory', ...process.memoryUsage(), eventLoopDelay, cpuByThread: cpuByThread() });
        loopDelay.reset();
      }
      if (message.type === 'stop') resolve();
    });
  });
  await server.close();
}

if ((await postgresReachable()) && process.env.BENCH_ENGINE !== 'pglite') {
  await withPostgresSchema(async (database) => serve('PostgreSQL', await startServer(database)));
} else {
  const database = await openPglite();
  await migrateToLatest(database.db);
  await serve('PGlite', await startServer(database));
  await database.close();
}
process.exit(0);
