import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, type DatabaseIntrospector } from 'kysely';
import pg from 'pg';
import { CopyingClient } from './copy-rows.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { PgliteDialect } from './pglite-dialect.ts';
import type { Tables } from './schema.ts';
import { quotedIdentifier } from './sql-identifier.ts';
import { CurrentSchemaIntrospector } from './schema-introspector.ts';

export type DatabaseKind = 'postgres' | 'pglite';

/** PostgreSQL as Kysely speaks it, its migrator looking at this connection's schema only (see CurrentSchemaIntrospector). */
class PostgresSchemaDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}

/** The database behind every read model and the event store: PostgreSQL, or PGlite embedded in the process. */
export interface Database {
  readonly kind: DatabaseKind;
  readonly db: Kysely<Tables>;
  /** LISTEN on a channel; resolves once listening. Returns the function that stops it. */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const INT8_OID = 20;

// int8 comes back as a JS number on both engines (PGlite already does this), so code never sees the difference.
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export interface PostgresOptions {
  url: string;
  /** Schema put first on every connection's search_path (tests use one schema each). */
  schema?: string;
  maxConnections?: number;
}

export function openPostgres(options: PostgresOptions): Database {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 20,
    types: pgTypes,
    // Runs a COPY query (copy-rows.ts) through the COPY protocol.
    Client: CopyingClient,
    ...(options.schema ? { options: `-c search_path=${options.schema},public` } : {}),
  });
  // An idle connection that PostgreSQL drops (a restart, pg_terminate_backend) is an 'error' on the pool; without a
  // listener it would end the process. The pool replaces it on the next query.
  pool.on('error', () => {});
  // The same for a connection in use: its query fails (a 503 to the request), and the pool drops it on release.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Tables>({ dialect: new PostgresSchemaDialect({ pool }) });
  return {
    kind: 'postgres',
    db,
    async listen(channel, onMessage) {
      // One connection held for LISTEN. When PostgreSQL drops it (a restart, pg_terminate_backend), it is replaced
      // after a second; notifications missed meanwhile only delay the listeners, which poll as well.
      const handler = (message: pg.Notification) => {
        if (message.channel === channel) onMessage(message.payload ?? '');
      };
      let client: pg.PoolClient | undefined;
      let stopped = false;
      let retry: NodeJS.Timeout | undefined;
      const connect = async (): Promise<void> => {
        const connected = await pool.connect();
        connected.on('error', () => {
          connected.off('notification', handler);
          connected.release(true);
          if (client === connected) client = undefined;
          scheduleReconnect();
        });
        connected.on('notification', handler);
        await connected.query(`listen ${quotedIdentifier(channel)}`);
        client = connected;
      };
      const scheduleReconnect = () => {
        if (stopped || retry) return;
        retry = setTimeout(() => {
          retry = undefined;
          connect().catch(scheduleReconnect);
        }, 1_000);
        retry.unref();
      };
      await connect();
      return async () => {
        stopped = true;
        clearTimeout(retry);
        const held = client;
        client = undefined;
        if (!held) return;
        held.off('notification', handler);
        try {
          await held.query(`unlisten ${quotedIdentifier(channel)}`);
          held.release();
        } catch (error) {
          held.release(error instanceof Error ? error : true);
        }
      };
    },
    async close() {
      await db.destroy();
    },
  };
}

export interface PgliteOptions {
  /** Folder for the data files; in memory when absent. */
  dir?: string;
  /** A cluster dumped before (`dumpDataDir`) to start from instead of running initdb: the tests' many databases. */
  loadDataDir?: Blob;
}

export async function openPglite(options: PgliteOptions = {}): Promise<Database> {
  const unlock = options.dir ? lockDataDir(options.dir) : () => {};
  try {
    const pglite = await PGlite.create({ dataDir: options.dir, loadDataDir: options.loadDataDir });
    const db = new Kysely<Tables>({ dialect: new PgliteDialect(pglite) });
    return {
      kind: 'pglite',
      db,
      async listen(channel, onMessage) {
        const stop = await pglite.listen(channel, onMessage);
        return async () => {
          if (!pglite.closed) await stop();
        };
      },
      async close() {
        await db.destroy();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}
