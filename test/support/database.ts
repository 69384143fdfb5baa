import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateToLatest, openPglite, openPostgres, type Database, type DatabaseKind } from '../../src/infra/database/index.ts';
import { freshClusterTarball } from './pglite-template.ts';
import { postgresAvailable, TEST_DATABASE_URL } from './services.ts';

export interface TestDatabase extends Database {
  /** PostgreSQL only: the schema of its own, for processes that connect by URL (`-c search_path=…`). */
  schema?: string;
  /** Closes the connections and drops everything the test created. */
  destroy(): Promise<void>;
}

/** The engines a suite runs on: PGlite always, PostgreSQL when reachable (always in CI). */
export async function databaseKinds(): Promise<DatabaseKind[]> {
  return (await postgresAvailable()) ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * The engine a route suite runs on: PostgreSQL where it is reachable (always in CI), else PGlite. What differs
 * between the engines lives below the routes (the event store, projections, repositories), and those suites run on
 * both; the browser tests run every route on PGlite, the embedded mode's engine.
 */
export async function routeDatabaseKind(): Promise<DatabaseKind> {
  return (await databaseKinds()).at(-1)!;
}

/** A fresh, migrated database: an in-memory PGlite, or a schema of its own on the test PostgreSQL. */
export async function createTestDatabase(kind: DatabaseKind, options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const migrate = options.migrate ?? true;
  if (kind === 'pglite') {
    const database = await openPglite({ loadDataDir: await freshClusterTarball() });
    if (migrate) await migrateToLatest(database.db);
    return { ...database, destroy: () => database.close() };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const database = openPostgres({ url: TEST_DATABASE_URL, schema });
  if (migrate) await migrateToLatest(database.db);
  return {
    ...database,
    schema,
    async destroy() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await cleanup.connect();
      await cleanup.query(`drop schema if exists ${schema} cascade`);
      await cleanup.end();
    },
  };
}
