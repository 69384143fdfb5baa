import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Tables } from '../../infra/database/schema.ts';
import { collectionOf } from './queries.ts';

// GET /api/my-cards answers with the whole collection (the web app filters, sorts and pages it, SPEC.md §9), which
// for a keen collector is thousands of cards and megabytes of JSON. Collections change rarely next to how often
// they are read, so the JSON is kept per owner with the version it was made at (card_collections, kept by the
// cards projection in the same transaction as the cards): a read looks up one version and, when it has not moved,
// answers from memory. Concurrent reads of one version share one query. Every API process keeps its own copy; the
// version check makes them all correct.

export interface CollectionSnapshot {
  /** The JSON array of the owner's cards, newest first. */
  json: string;
  /** Changes whenever the collection does: for If-None-Match. */
  etag: string;
}

export interface CollectionReader {
  read(owner: string): Promise<CollectionSnapshot>;
}

export function createCollectionReader(db: Kysely<Tables>, options: { maxCachedChars?: number } = {}): CollectionReader {
  const maxCachedChars = options.maxCachedChars ?? 64 * 1024 * 1024;
  /** In least-recently-read order (a Map keeps insertion order; a hit moves its entry to the end). */
  const cache = new Map<string, { version: number; snapshot: CollectionSnapshot }>();
  const building = new Map<string, Promise<CollectionSnapshot>>();
  let cachedChars = 0;

  function remember(owner: string, version: number, snapshot: CollectionSnapshot): void {
    const previous = cache.get(owner);
    if (previous) {
      cache.delete(owner);
      cachedChars -= previous.snapshot.json.length;
    }
    if (snapshot.json.length > maxCachedChars) return;
    cache.set(owner, { version, snapshot });
    cachedChars += snapshot.json.length;
    for (const [oldest, entry] of cache) {
      if (cachedChars <= maxCachedChars) break;
      cache.delete(oldest);
      cachedChars -= entry.snapshot.json.length;
    }
  }

  async function build(owner: string, version: number): Promise<CollectionSnapshot> {
    // Read after the version: the rows are at least that new, so a snapshot is never older than its label.
    const json = JSON.stringify(await collectionOf(db, owner));
    const etag = `"${version}-${createHash('sha256').update(owner).digest('base64url').slice(0, 12)}"`;
    return { json, etag };
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
