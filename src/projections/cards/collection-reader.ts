import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import type { Kysely } from 'kysely';
import type { Tables } from '../../infra/database/schema.ts';
import { collectionOf } from './queries.ts';

// GET /api/my-cards answers with the whole collection (the web app filters, sorts and pages it, SPEC.md §9), which
// for a keen collector is thousands of cards and megabytes of JSON. Collections change rarely next to how often
// they are read, so the JSON is kept per owner, gzipped once, with the version it was made at (card_collections,
// kept by the cards projection in the same transaction as the cards): a read looks up one version and, when it has
// not moved, answers from memory. Concurrent reads of one version share one query. Every API process keeps its own
// copy; the version check keeps them all correct.

const gzip = promisify(gzipCallback);

export interface CollectionSnapshot {
  /** The JSON array of the owner's cards, newest first, gzipped. */
  gzipped: Buffer;
  /** Changes whenever the collection does: for If-None-Match. */
  etag: string;
}

export interface CollectionReader {
  read(owner: string): Promise<CollectionSnapshot>;
}

export function createCollectionReader(db: Kysely<Tables>, options: { maxCachedBytes?: number } = {}): CollectionReader {
  const maxCachedBytes = options.maxCachedBytes ?? 32 * 1024 * 1024;
  /** In least-recently-read order (a Map keeps insertion order; a hit moves its entry to the end). */
  const cache = new Map<string, { version: number; snapshot: CollectionSnapshot }>();
  const building = new Map<string, Promise<CollectionSnapshot>>();
  let cachedBytes = 0;

  function forget(owner: string): void {
    const entry = cache.get(owner);
    if (!entry) return;
    cache.delete(owner);
    cachedBytes -= entry.snapshot.gzipped.length;
  }

  function remember(owner: string, version: number, snapshot: CollectionSnapshot): void {
    forget(owner);
    if (snapshot.gzipped.length > maxCachedBytes) return;
    cache.set(owner, { version, snapshot });
    cachedBytes += snapshot.gzipped.length;
    for (const oldest of cache.keys()) {
      if (cachedBytes <= maxCachedBytes) break;
      forget(oldest);
    }
  }

  async function build(owner: string, version: number): Promise<CollectionSnapshot> {
    // Read after the version: the rows are at least that new, so a snapshot is never older than its label.
    const json = JSON.stringify(await collectionOf(db, owner));
    const etag = `"${version}-${createHash('sha256').update(owner).digest('base64url').slice(0, 12)}"`;
    return { gzipped: await gzip(json), etag };
  }

  return {
    async read(owner) {
      const row = await db.selectFrom('card_collections').select('version').where('owner', '=', owner).executeTakeFirst();
      const version = row?.version ?? 0;
      const cached = cache.get(owner);
      if (cached?.version === version) {
        cache.delete(owner);
        cache.set(owner, cached);
        return cached.snapshot;
      }
      const key = `${version} ${owner}`;
      let pending = building.get(key);
      if (!pending) {
        pending = build(owner, version).finally(() => building.delete(key));
        building.set(key, pending);
        remember(owner, version, await pending);
      }
      return pending;
    },
  };
}
