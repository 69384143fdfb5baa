import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';

// Lists a screen reads whole (the collection, the portfolio: the web app filters, sorts and pages them, SPEC.md §9)
// are, for a keen collector, thousands of rows and megabytes of JSON, and change rarely next to how often they are
// read. So the JSON is kept per owner, gzipped once, with the version it was made at (the global position of the last
// event that changed the list, kept by its projection in the same transaction as the rows): a read looks up one
// version and, when it has not moved, answers from memory. Concurrent reads of one version share one query. Every API
// process keeps its own copy; the version check keeps them all correct.

const gzip = promisify(gzipCallback);

export interface OwnerSnapshot {
  /** The JSON of the owner's list, gzipped. */
  gzipped: Buffer;
  /** Changes whenever the list does: for If-None-Match. */
  etag: string;
}

export interface OwnerSnapshotReader {
  read(owner: string): Promise<OwnerSnapshot>;
}

export interface OwnerSnapshotSource {
  /** A short name, so two lists of one owner never share an ETag. */
  name: string;
  /** The list's current version for this owner (0 when it never changed). */
  version(owner: string): Promise<number>;
  /** The list itself, as the API answers it. */
  rows(owner: string): Promise<unknown>;
}

export function createOwnerSnapshotReader(source: OwnerSnapshotSource, options: { maxCachedBytes?: number } = {}): OwnerSnapshotReader {
  const maxCachedBytes = options.maxCachedBytes ?? 32 * 1024 * 1024;
  /** In least-recently-read order (a Map keeps insertion order; a hit moves its entry to the end). */
  const cache = new Map<string, { version: number; snapshot: OwnerSnapshot }>();
  const building = new Map<string, Promise<OwnerSnapshot>>();
  let cachedBytes = 0;

  function forget(owner: string): void {
    const entry = cache.get(owner);
    if (!entry) return;
    cache.delete(owner);
    cachedBytes -= entry.snapshot.gzipped.length;
  }

  function remember(owner: string, version: number, snapshot: OwnerSnapshot): void {
    forget(owner);
    if (snapshot.gzipped.length > maxCachedBytes) return;
    cache.set(owner, { version, snapshot });
    cachedBytes += snapshot.gzipped.length;
    for (const oldest of cache.keys()) {
      if (cachedBytes <= maxCachedBytes) break;
      forget(oldest);
    }
  }

  async function build(owner: string, version: number): Promise<OwnerSnapshot> {
    // Read after the version: the rows are at least that new, so a snapshot is never older than its label.
    const json = JSON.stringify(await source.rows(owner));
    const etag = `"${source.name}-${version}-${createHash('sha256').update(owner).digest('base64url').slice(0, 12)}"`;
    return { gzipped: await gzip(json), etag };
  }

  return {
    async read(owner) {
      const version = await source.version(owner);
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
