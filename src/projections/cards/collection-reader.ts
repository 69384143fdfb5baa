import type { Kysely } from 'kysely';
import type { Tables } from '../../infra/database/schema.ts';
import { createOwnerSnapshotReader, type OwnerSnapshot, type OwnerSnapshotReader } from '../snapshots/owner-snapshots.ts';
import { collectionAndPortfolioVersion, collectionOf } from './queries.ts';

// GET /api/my-cards answers with the whole collection from a per-owner gzipped snapshot (../snapshots), versioned by
// card_collections, which the cards projection keeps in the same transaction as the cards.

export type CollectionSnapshot = OwnerSnapshot;
export type CollectionReader = OwnerSnapshotReader;

export function createCollectionReader(db: Kysely<Tables>, options: { maxCachedBytes?: number } = {}): CollectionReader {
  return createOwnerSnapshotReader(
    {
      name: 'collection',
      // Each card names its portfolio entry ("In your portfolio →"): the portfolio's version counts too. Both are
      // places in the log, so the later one changes whenever either does.
      version: (owner) => collectionAndPortfolioVersion(db, owner),
      rows: (owner) => collectionOf(db, owner),
    },
    options,
  );
}
