// The API server of `npm run bench:import`: the real app listening on loopback, as `npm start` runs it. Started with
// `--serve` it runs in a process of its own on PGlite with the in-process queue (the embedded mode: it works on the
// rows itself), so its memory and CPU are its own and the bench's image server shares neither; it tells its parent
// the port, and when asked its CPU time by thread. Imported, it gives startApi for an API process over a database of the caller's (the BullMQ part).
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/http/app.ts';
import { migrateToLatest, openPglite, type Database } from '../src/infra/database/index.ts';
import { createRuntime } from '../src/runtime.ts';
import { cpuByThread } from './http-load.ts';

/** What every server and worker of the bench runs with: no market prices from the internet, no daily grading limit in the way. */
export const BENCH_ENV = { NODE_ENV: 'production', PRICE_SOURCE: 'none', GRADE_LIMIT_USER_PER_DAY: '1000000', ALLOW_LOOPBACK_IMAGE_URLS: 'true', IMAGE_FETCH_TIMEOUT_MS: '10000' };

export async function startApi(database: Database, env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-import-api-'));
  const config = loadConfig({ ...process.env, REDIS_URL: '', LOG_LEVEL: 'silent', DATA_DIR: dataDir, WEB_DIST_DIR: path.join(dataDir, 'no-web'), AUTH_RATE_LIMIT_PER_ADDRESS: '1000', ...BENCH_ENV, ...env });
  const runtime = await createRuntime(config, { role: 'api', database, logger: pino({ level: 'silent' }) });
  const app = await buildApp(runtime);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    port: (app.server.address() as AddressInfo).port,
    async close() {
      await app.close();
      await runtime.close(2_000);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

if (process.argv[2] === '--serve') {
  const pglite = await openPglite();
  await migrateToLatest(pglite.db);
  const api = await startApi(pglite, {});
  process.send!({ type: 'ready', port: api.port });
  process.once('disconnect', () => process.exit(0)); // the bench ended without stopping it
  // Asked for its CPU by thread (before and after an import), or told to stop.
  await new Promise<void>((resolve) =>
    process.on('message', (message: { type: string }) => {
      if (message.type === 'cpu') process.send!({ type: 'cpu', cpuByThread: cpuByThread() });
      if (message.type === 'stop') resolve();
    }),
  );
  await api.close();
  await pglite.close();
  process.exit(0);
}
