import type { Config } from '../../config.ts';
import { openPglite, openPostgres, type Database } from './database.ts';
import { migrateToLatest } from './migrate.ts';

export type { Database, DatabaseKind } from './database.ts';
export { openPglite, openPostgres } from './database.ts';
export { migrateToLatest } from './migrate.ts';

/** Opens the configured database (PostgreSQL with DATABASE_URL, else PGlite in DATA_DIR/pg) and migrates it. */
export async function openDatabase(config: Config): Promise<Database> {
  const database = config.DATABASE_URL
    ? openPostgres({ url: config.DATABASE_URL })
    : await openPglite({ dir: config.pgliteDir });
  try {
    await migrateToLatest(database.db);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
