import type { Kysely } from 'kysely';
import type { Tables } from '../../infra/database/schema.ts';
import { createOwnerSnapshotReader, type OwnerSnapshotReader } from '../snapshots/owner-snapshots.ts';
import { portfolioOf } from './queries.ts';

/** GET /api/portfolio from a per-owner gzipped snapshot, versioned by portfolio_versions (kept by the projection). */
export function createPortfolioReader(db: Kysely<Tables>, options: { maxCachedBytes?: number } = {}): OwnerSnapshotReader {
  return createOwnerSnapshotReader(
    {
      name: 'portfolio',
      async version(owner) {
        const row = await db.selectFrom('portfolio_versions').select('version').where('owner', '=', owner).executeTakeFirst();
        return Number(row?.version ?? 0);
      },
      rows: (owner) => portfolioOf(db, owner),
    },
    options,
  );
}
