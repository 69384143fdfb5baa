import type { Migration } from 'kysely';

// Applied in the order listed here (names sort the same way). One statement per sql`` call:
// PGlite's extended protocol refuses several statements in one query.
export const migrations: Record<string, Migration> = {};
