import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.ts';
import { PgliteDialect } from './pglite-dialect.ts';
import type { Tables } from './schema.ts';

export type DatabaseKind = 'postgres' | 'pglite';

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
    ...(options.schema ? { options: `-c search_path=${options.schema},public` } : {}),
  });
  // An idle connection the server closed (PostgreSQL restarted, a failover, an idle timeout) is dropped from the pool
  // and replaced on the next query. Without a listener this 'error' would end the whole process.
  pool.on('error', () => {});
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  return {
    kind: 'postgres',
    db,
    async listen(channel, onMessage) {
      const client = await pool.connect();
      const handler = (message: pg.Notification) => {
        if (message.channel === channel) onMessage(message.payload ?? '');
      };
      client.on('notification', handler);
      await client.query(`listen "${channel.replaceAll('"', '""')}"`);
      return async () => {
        client.off('notification', handler);
        try {
          await client.query(`unlisten "${channel.replaceAll('"', '""')}"`);
        } finally {
          client.release();
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
}

export async function openPglite(options: PgliteOptions = {}): Promise<Database> {
  const unlock = options.dir ? lockDataDir(options.dir) : () => {};
  try {
    const pglite = await PGlite.create(options.dir ? { dataDir: options.dir } : {});
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
