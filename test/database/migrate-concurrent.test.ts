import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, openPostgres } from '../../src/infra/database/index.ts';
import { postgresAvailable, TEST_DATABASE_URL } from '../support/services.ts';

// Migrations at start-up share the database with other processes creating and dropping schemas: test files each
// have their own, a rebuild its scratch one. Kysely's migrator lists every schema's tables before it locks, so a
// schema dropped at that moment used to fail a migration that had nothing to do with it.

describe.runIf(await postgresAvailable())('migrating while other schemas come and go', () => {
  it('ten schemas migrated at once while others are created and dropped: every migration succeeds', async () => {
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    let churning = true;
    const churn = (async () => {
      while (churning) {
        const name = `churn_${randomBytes(4).toString('hex')}`;
        await admin.query(`create schema ${name}; create table ${name}.t (id int)`);
        await admin.query(`drop schema ${name} cascade`);
      }
    })();
    const schemas = Array.from({ length: 10 }, () => `mig_${randomBytes(6).toString('hex')}`);
    try {
      for (const schema of schemas) await admin.query(`create schema ${schema}`);
      const outcomes = await Promise.allSettled(
        schemas.map(async (schema) => {
          const database = openPostgres({ url: TEST_DATABASE_URL, schema });
          try {
            await migrateToLatest(database.db);
          } finally {
            await database.close();
          }
        }),
      );
      expect(outcomes.filter((o) => o.status === 'rejected').map((o) => String((o as PromiseRejectedResult).reason))).toEqual([]);
    } finally {
      churning = false;
      await churn;
      for (const schema of schemas) await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    }
  }, 120_000);
});
