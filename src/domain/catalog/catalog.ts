// The card catalogue (every English Pokémon TCG card, facts only), as the app holds it in memory, and its lookups:
// by catalogue id, by set and number, by the printed `number/total`, by set code, and by name (accent- and
// case-insensitive, tolerant of OCR slips). Pure: the compiled data comes in from src/infra/catalog.

export const COMPILED_CATALOG_VERSION = 1;

/** [id, name, series, printedTotal, total, code ('' when none), releaseDate YYYY-MM-DD] */
export type CompiledSet = [string, string, string, number, number, string, string];
/**
 * [set index, number, name, supertype, subtypes '|'-joined, hp, types '|'-joined, rarity as printed, artist,
 *  Pokédex numbers '|'-joined, id when it is not `<set>-<number>` else '']
 */
export type CompiledCard = [number, string, string, string, string, string, string, string, string, string, string];

export interface CompiledCatalog {
  version: typeof COMPILED_CATALOG_VERSION;
  source: string;
  fetched: string;
  sets: CompiledSet[];
  cards: CompiledCard[];
}

export interface CatalogSet {
  id: string;
  name: string;
  series: string;
  /** The total printed after the slash: `58/102`. */
  printedTotal: number;
  /** Cards in the set, secret rares included. */
  total: number;
  /** The set code printed on newer cards ("SVI"), or null. */
  code: string | null;
  /** YYYY-MM-DD */
  releaseDate: string;
}

export interface CatalogCard {
  id: string;
  set: CatalogSet;
  number: string;
  name: string;
  supertype: string;
  subtypes: string[];
  hp: string | null;
  types: string[];
  /** As the catalogue prints it: "Rare Holo", "Illustration Rare"; null for the few without. */
  rarity: string | null;
  artist: string | null;
  dex: number[];
}

/** Lower case, no accents, letters and digits only: "Farfetch'd" and "farfetchd" are one name, "Pokémon" is "pokemon". */
export function nameKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/** "058" is 58 and "TG05" is TG5: printed numbers with their leading zeros dropped, upper case. */
export function numberKey(number: string): string {
  const key = number
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .replace(/(^|[A-Z])0+(?=\d)/g, '$1');
  return key === '' ? number : key; // Unown's "?" and "!"
}

/** The two rows editDistance works in, grown as needed and kept: it runs against every name of the catalogue per read. */
let distanceRows = new Int32Array(128);

/** Levenshtein distance, with an early exit once `limit` is passed (returns limit + 1 then). */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const width = b.length + 1;
  if (distanceRows.length < 2 * width) distanceRows = new Int32Array(4 * width);
  const rows = distanceRows;
  let previous = 0;
  let current = width;
  for (let j = 0; j < width; j++) rows[j] = j;
  for (let i = 1; i <= a.length; i++) {
    rows[current] = i;
    let rowMin = i;
    const char = a.charCodeAt(i - 1);
    for (let j = 1; j < width; j++) {
      const cost = char === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(rows[previous + j]! + 1, rows[current + j - 1]! + 1, rows[previous + j - 1]! + cost);
      rows[current + j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return limit + 1;
    [previous, current] = [current, previous];
  }
  return rows[previous + b.length]!;
}

/** 1 for the same name, 0 for nothing in common: one minus the edit distance over the longer length. */
export function nameSimilarity(a: string, b: string): number {
  const x = nameKey(a);
  const y = nameKey(b);
  if (x.length === 0 || y.length === 0) return 0;
  return 1 - editDistance(x, y) / Math.max(x.length, y.length);
}

export interface NameMatch {
  name: string;
  similarity: number;
  cards: CatalogCard[];
}

export interface Catalog {
  source: string;
  fetched: string;
  sets: readonly CatalogSet[];
  cards: readonly CatalogCard[];
  byId(id: string): CatalogCard | undefined;
  bySetNumber(setId: string, number: string): CatalogCard | undefined;
  /** Cards printed `number/total` (`58/102`, `TG12/TG30`): every set whose printed total is `total`. */
  byPrintedNumber(number: string, total: string): CatalogCard[];
  /** Cards whose number is `number` in any set (promos print no total). */
  byNumber(number: string): CatalogCard[];
  /** Sets printing this code ("SVI", "BS"), case-insensitive. */
  setsByCode(code: string): CatalogSet[];
  /** Names within `minSimilarity` (default 0.7) of `name`, most similar first, each with its cards. */
  byName(name: string, options?: { minSimilarity?: number; limit?: number }): NameMatch[];
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const split = (text: string) => (text === '' ? [] : text.split('|'));

/**
 * A card kept as its compiled row, its fields read from it when asked: twenty thousand cards then cost the rows
 * and one small object each, not a dozen strings and three arrays each.
 */
class CompactCard implements CatalogCard {
  readonly #row: CompiledCard;
  readonly set: CatalogSet;
  constructor(row: CompiledCard, set: CatalogSet) {
    this.#row = row;
    this.set = set;
  }
  get id(): string {
    return this.#row[10] === '' ? `${this.set.id}-${this.#row[1]}` : this.#row[10];
  }
  get number(): string {
    return this.#row[1];
  }
  get name(): string {
    return this.#row[2];
  }
  get supertype(): string {
    return this.#row[3];
  }
  get subtypes(): string[] {
    return split(this.#row[4]);
  }
  get hp(): string | null {
    return this.#row[5] === '' ? null : this.#row[5];
  }
  get types(): string[] {
    return split(this.#row[6]);
  }
  get rarity(): string | null {
    return this.#row[7] === '' ? null : this.#row[7];
  }
  get artist(): string | null {
    return this.#row[8] === '' ? null : this.#row[8];
  }
  get dex(): number[] {
    return split(this.#row[9]).map(Number);
  }
  toJSON(): object {
    const { id, number, name, supertype, subtypes, hp, types, rarity, artist, dex } = this;
    return { id, set: this.set, number, name, supertype, subtypes, hp, types, rarity, artist, dex };
  }
}

export function createCatalog(data: CompiledCatalog): Catalog {
  if (data.version !== COMPILED_CATALOG_VERSION) throw new Error(`catalogue version ${String(data.version)}, expected ${COMPILED_CATALOG_VERSION}: run npm run build:catalog`);
  const sets: CatalogSet[] = data.sets.map(([id, name, series, printedTotal, total, code, releaseDate]) => ({
    id,
    name,
    series,
    printedTotal,
    total,
    code: code === '' ? null : code,
    releaseDate,
  }));
  // The same supertype, subtypes, types, rarity and artist recur thousands of times: one string each.
  const interned = new Map<string, string>();
  const intern = (text: string) => {
    const kept = interned.get(text);
    if (kept !== undefined) return kept;
    interned.set(text, text);
    return text;
  };
  const cards: CatalogCard[] = data.cards.map((row) => {
    for (const field of [3, 4, 6, 7, 8] as const) row[field] = intern(row[field]);
    return new CompactCard(row, sets[row[0]]!);
  });

  /** Only the few ids that are not `<set>-<number>`; the rest are found by their set and number. */
  const oddIds = new Map<string, CatalogCard>();
  const bySetNumber = new Map<string, Map<string, CatalogCard>>();
  const byNumber = new Map<string, CatalogCard[]>();
  const byName = new Map<string, { name: string; cards: CatalogCard[] }>();
  const setsByCode = new Map<string, CatalogSet[]>();
  for (const set of sets) if (set.code) push(setsByCode, set.code.toUpperCase(), set);
  for (const card of cards) {
    if (card.id !== `${card.set.id}-${card.number}`) oddIds.set(card.id, card);
    const number = numberKey(card.number);
    const inSet = bySetNumber.get(card.set.id) ?? new Map<string, CatalogCard>();
    bySetNumber.set(card.set.id, inSet);
    const taken = inSet.get(number);
    if (!taken || (oddIds.has(taken.id) && !oddIds.has(card.id))) inSet.set(number, card);
    push(byNumber, number, card);
    const nk = nameKey(card.name);
    const entry = byName.get(nk);
    if (entry) entry.cards.push(card);
    else byName.set(nk, { name: card.name, cards: [card] });
  }
  const names = [...byName.entries()];

  return {
    source: data.source,
    fetched: data.fetched,
    sets,
    cards,
    byId(id) {
      const odd = oddIds.get(id);
      if (odd) return odd;
      const dash = id.indexOf('-');
      if (dash <= 0) return undefined;
      const card = bySetNumber.get(id.slice(0, dash))?.get(numberKey(id.slice(dash + 1)));
      return card?.id === id ? card : undefined;
    },
    bySetNumber: (setId, number) => bySetNumber.get(setId)?.get(numberKey(number)),
    byNumber: (number) => byNumber.get(numberKey(number)) ?? [],
    byPrintedNumber(number, total) {
      const totalDigits = Number(total.replace(/\D/g, ''));
      if (!Number.isFinite(totalDigits) || totalDigits === 0) return [];
      return (byNumber.get(numberKey(number)) ?? []).filter((card) => card.set.printedTotal === totalDigits);
    },
    setsByCode: (code) => setsByCode.get(code.toUpperCase()) ?? [],
    byName(name, options = {}) {
      const minSimilarity = options.minSimilarity ?? 0.7;
      const key = nameKey(name);
      if (key.length === 0) return [];
      const exact = byName.get(key);
      const found: NameMatch[] = exact ? [{ name: exact.name, similarity: 1, cards: exact.cards }] : [];
      const limit = Math.floor((1 - minSimilarity) * key.length) + 2;
      for (const [other, entry] of names) {
        if (other === key) continue;
        const distance = editDistance(key, other, limit);
        if (distance > limit) continue;
        const similarity = 1 - distance / Math.max(key.length, other.length);
        if (similarity >= minSimilarity) found.push({ name: entry.name, similarity, cards: entry.cards });
      }
      found.sort((a, b) => b.similarity - a.similarity || a.name.localeCompare(b.name));
      return found.slice(0, options.limit ?? 10);
    },
  };
}
