import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgres } from '../../src/infra/database/index.ts';
import { postgresAvailable, TEST_DATABASE_URL } from '../support/services.ts';

// The service mode's processes outlive a PostgreSQL restart: a pooled connection the server closes is replaced,
// and the process goes on (an unhandled pool error used to end it).

describe.runIf(await postgresAvailable())('PostgreSQL connections', () => {
  it('survive the server closing an idle connection', async () => {
    const database = openPostgres({ url: TEST_DATABASE_URL, maxConnections: 1 });
    try {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db);
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
      await admin.end();
      // The pool notices the closed connection in its own time; the next query gets a new one.
      await expect.poll(async () => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db).catch(() => ({ rows: [{ pid: 0 }] }))).rows[0]!.pid).not.toBe(rows[0]!.pid);
      expect((await sql<{ ok: number }>`select 1 as ok`.execute(database.db)).rows).toEqual([{ ok: 1 }]);
    } finally {
      await database.close();
    }
  });
});
