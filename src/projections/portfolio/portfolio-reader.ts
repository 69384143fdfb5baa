import type { Kysely } from 'kysely';
import type { Tables } from '../../infra/database/schema.ts';
import { createOwnerSnapshotReader, type OwnerSnapshotReader } from '../snapshots/owner-snapshots.ts';
import { collectionAndPortfolioVersion } from '../cards/queries.ts';
import { portfolioOf } from './queries.ts';

/** GET /api/portfolio from a per-owner gzipped snapshot, versioned by portfolio_versions (kept by the projection). */
export function createPortfolioReader(db: Kysely<Tables>, options: { maxCachedBytes?: number } = {}): OwnerSnapshotReader {
  return createOwnerSnapshotReader(
    {
      name: 'portfolio',
      // Each entry names the collection card it came from while that card is kept: the collection's version counts too.
      version: (owner) => collectionAndPortfolioVersion(db, owner),
      rows: (owner) => portfolioOf(db, owner),
    },
    options,
  );
}
