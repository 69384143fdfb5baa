import { readFileSync } from 'node:fs';
import { brotliDecompressSync } from 'node:zlib';
import { createCatalog, type Catalog, type CompiledCatalog } from '../../domain/catalog/index.ts';

// The catalogue the project ships (assets/catalog, built by `npm run build:catalog` from ../shared/catalog), read
// once per process on first use and kept: about 300 kB on disk (with the cards' face facts), 2 MB in memory, 3 MB once
// the attack and evolves-from lookups are first used (src/domain/catalog).

export const CATALOG_FILE = new URL('../../../assets/catalog/pokemon-tcg-en.json.br', import.meta.url);

export function readCatalog(file: URL | string = CATALOG_FILE): Catalog {
  const data = JSON.parse(brotliDecompressSync(readFileSync(file)).toString('utf8')) as CompiledCatalog;
  return createCatalog(data);
}

let shipped: Catalog | undefined;

/** The shipped catalogue, loaded on first call. */
export function shippedCatalog(): Catalog {
  shipped ??= readCatalog();
  return shipped;
}
