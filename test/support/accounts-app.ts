import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { buildApp } from '../../src/http/app.ts';
import type { DatabaseKind } from '../../src/infra/database/index.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import type { TestClock } from './test-clock.ts';

export interface AccountsApp {
  database: TestDatabase;
  runtime: Runtime;
  app: FastifyInstance;
  close(): Promise<void>;
}

/**
 * The real app (buildApp over a real runtime) on a fresh database and data folder, on a clock the test moves: the
 * accounts tests' server. `env` adds settings (the origin, limits, a fake's URL).
 */
export async function startAccountsApp(kind: DatabaseKind, clock: TestClock, env: Record<string, string>): Promise<AccountsApp> {
  const database = await createTestDatabase(kind);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'accounts-test-'));
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, CPU_POOL_SIZE: '1', ...env });
  const runtime = await createRuntime(config, { role: 'api', database, clock });
  const app = await buildApp(runtime);
  await app.ready();
  return {
    database,
    runtime,
    app,
    async close() {
      await app.close();
      await runtime.close();
      await database.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
