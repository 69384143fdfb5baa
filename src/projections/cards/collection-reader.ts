import type { Kysely } from 'kysely';
import type { Tables } from '../../infra/database/schema.ts';
import { createOwnerSnapshotReader, type OwnerSnapshot, type OwnerSnapshotReader } from '../snapshots/owner-snapshots.ts';
import { collectionOf } from './queries.ts';

// GET /api/my-cards answers with the whole collection from a per-owner gzipped snapshot (../snapshots), versioned by
// card_collections, which the cards projection keeps in the same transaction as the cards.

export type CollectionSnapshot = OwnerSnapshot;
export type CollectionReader = OwnerSnapshotReader;

export function createCollectionReader(db: Kysely<Tables>, options: { maxCachedBytes?: number } = {}): CollectionReader {
  return createOwnerSnapshotReader(
    {
      name: 'collection',
      async version(owner) {
        const row = await db.selectFrom('card_collections').select('version').where('owner', '=', owner).executeTakeFirst();
        return row?.version ?? 0;
      },
      rows: (owner) => collectionOf(db, owner),
    },
    options,
  );
}
