import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { copyRowsOf } from './copy-rows.ts';
import { CurrentSchemaIntrospector } from './schema-introspector.ts';

// PGlite is one connection; Kysely asks for a connection per query or per transaction,
// so a queue hands it out to one caller at a time.
class ConnectionQueue {
  private tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const ready = this.tail.then(() => release);
    this.tail = this.tail.then(() => next);
    return ready;
  }
}

class PgliteConnection implements DatabaseConnection {
  release: (() => void) | undefined;
  private readonly pg: PGlite;
  constructor(pg: PGlite) {
    this.pg = pg;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // A COPY's rows (copy-rows.ts) reach PGlite as the file /dev/blob.
    const copy = copyRowsOf(query.parameters);
    const result = copy
      ? await this.pg.query<R>(`copy ${copy.target} from '/dev/blob'`, [], { blob: new Blob([copy.text]) })
      : await this.pg.query<R>(query.sql, query.parameters as unknown[]);
    return {
      rows: result.rows,
      numAffectedRows: result.affectedRows === undefined ? undefined : BigInt(result.affectedRows),
    };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not stream query results');
  }
}

class PgliteDriver implements Driver {
  private readonly queue = new ConnectionQueue();
  private readonly connection: PgliteConnection;
  private readonly pg: PGlite;

  constructor(pg: PGlite) {
    this.pg = pg;
    this.connection = new PgliteConnection(pg);
  }

  async init(): Promise<void> {
    await this.pg.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    this.connection.release = await this.queue.acquire();
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const level = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await connection.executeQuery(CompiledQuery.raw(`begin${level}`));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PgliteConnection).release?.();
  }

  async destroy(): Promise<void> {
    if (!this.pg.closed) await this.pg.close();
  }
}

export class PgliteDialect implements Dialect {
  private readonly pg: PGlite;
  constructor(pg: PGlite) {
    this.pg = pg;
  }
  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PgliteDriver(this.pg);
  }
  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}
