// The card catalogue (every English Pokémon TCG card, facts only), as the app holds it in memory, and its lookups:
// by catalogue id, by set and number, by the printed `number/total`, by set code, and by name (accent- and
// case-insensitive, tolerant of OCR slips). Pure: the compiled data comes in from src/infra/catalog.
//
// Kept small (issue 13: "a few MB in memory at most"): the cards are columns of small integers, one per field, each
// an index into one table of every distinct text; the lookups are integer indexes over those columns. A card object
// (its fields read from the columns when asked) is made the first time a lookup hands that card out, and kept, so
// the same card is always the same object.

export const COMPILED_CATALOG_VERSION = 3;

/** [id, name, series, printedTotal, total, code ('' when none), releaseDate YYYY-MM-DD] */
export type CompiledSet = [string, string, string, number, number, string, string];

/** The card fields, each a column: `set` holds a set's index, every other an index into `strings`. */
export const CARD_COLUMNS = [
  'set',
  'number',
  'name',
  'supertype',
  'subtypes',
  'hp',
  'types',
  'rarity',
  'artist',
  'dex',
  'id',
  'evolvesFrom',
  'level',
  'abilities',
  'attacks',
  'weaknesses',
  'resistances',
  'retreat',
  'regulationMark',
] as const;
export type CardColumn = (typeof CARD_COLUMNS)[number];

/**
 * The shipped form. `strings`: every distinct text of the cards once, '' first: numbers, names, supertypes,
 * '|'-joined subtypes, HPs, '|'-joined types, rarities as printed, artists, '|'-joined Pokédex numbers, and the id of
 * a card whose id is not `<set>-<number>` ('' for the rest); and the face facts (issue 32): the name evolved from,
 * the level, '|'-joined ability names, '|'-joined attacks each `name~damage` (damage as printed, "" when none),
 * '|'-joined weaknesses and resistances, the retreat cost as digits, the regulation mark. `cards`: one array per
 * column, a card per position.
 */
export interface CompiledCatalog {
  version: typeof COMPILED_CATALOG_VERSION;
  source: string;
  fetched: string;
  strings: string[];
  sets: CompiledSet[];
  cards: Record<CardColumn, number[]>;
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
  /** What stands on the card's face besides the name (null or empty where the card prints none). */
  evolvesFrom: string | null;
  /** "23" of "LV. 23" (old cards). */
  level: string | null;
  abilities: string[];
  attacks: CatalogAttack[];
  /** As printed: "Fire ×2", "Lightning -30". */
  weaknesses: string[];
  resistances: string[];
  retreat: number | null;
  regulationMark: string | null;
}

export interface CatalogAttack {
  name: string;
  /** As printed: "30", "20×", "40+"; null for an attack that prints none. */
  damage: string | null;
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
  /** Every card, in the source's order (made on first use: the lookups do not need it). */
  readonly cards: readonly CatalogCard[];
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
  /** Cards that print "Evolves from `name`" (the catalogue's spelling, any case). */
  evolutionsOf(name: string): CatalogCard[];
  /**
   * Cards with an attack or ability whose name `holds` finds in one of the lines read (each a nameKey). Names of
   * four letters or fewer are not looked for: stray letters spell them by chance.
   */
  byMoveInLines(lineKeys: readonly string[], holds: (lineKey: string, name: string) => boolean): CatalogCard[];
}

type IndexArray = Uint8Array | Uint16Array | Uint32Array;

/** The smallest typed array that holds indexes up to `max`. */
function indexArray(length: number, max: number): IndexArray {
  return max < 2 ** 8 ? new Uint8Array(length) : max < 2 ** 16 ? new Uint16Array(length) : new Uint32Array(length);
}

/**
 * Items grouped by a key index (0..keys-1), as one array of item indexes in key order and where each key's run
 * starts: `items.subarray(starts[k], starts[k + 1])` are key k's items, in their own order.
 */
interface Grouped {
  starts: Uint32Array;
  items: IndexArray;
}

function groupBy(keyOf: IndexArray, keys: number): Grouped {
  const starts = new Uint32Array(keys + 1);
  for (const key of keyOf) starts[key + 1]!++;
  for (let k = 0; k < keys; k++) starts[k + 1]! += starts[k]!;
  const items = indexArray(keyOf.length, keyOf.length);
  const next = starts.slice(0, keys);
  for (let i = 0; i < keyOf.length; i++) items[next[keyOf[i]!]!++] = i;
  return { starts, items };
}

const split = (text: string) => (text === '' ? [] : text.split('|'));

/** The columns a card reads its fields from. */
interface CardTable {
  strings: readonly string[];
  sets: readonly CatalogSet[];
  columns: Record<CardColumn, IndexArray>;
}

/** One card: its table and its position. Its fields are read from the columns when asked. */
class CompactCard implements CatalogCard {
  readonly #table: CardTable;
  readonly #index: number;
  constructor(table: CardTable, index: number) {
    this.#table = table;
    this.#index = index;
  }
  #text(column: CardColumn): string {
    return this.#table.strings[this.#table.columns[column][this.#index]!]!;
  }
  #optional(column: CardColumn): string | null {
    const text = this.#text(column);
    return text === '' ? null : text;
  }
  get set(): CatalogSet {
    return this.#table.sets[this.#table.columns.set[this.#index]!]!;
  }
  get id(): string {
    return this.#optional('id') ?? `${this.set.id}-${this.number}`;
  }
  get number(): string {
    return this.#text('number');
  }
  get name(): string {
    return this.#text('name');
  }
  get supertype(): string {
    return this.#text('supertype');
  }
  get subtypes(): string[] {
    return split(this.#text('subtypes'));
  }
  get hp(): string | null {
    return this.#optional('hp');
  }
  get types(): string[] {
    return split(this.#text('types'));
  }
  get rarity(): string | null {
    return this.#optional('rarity');
  }
  get artist(): string | null {
    return this.#optional('artist');
  }
  get dex(): number[] {
    return split(this.#text('dex')).map(Number);
  }
  get evolvesFrom(): string | null {
    return this.#optional('evolvesFrom');
  }
  get level(): string | null {
    return this.#optional('level');
  }
  get abilities(): string[] {
    return split(this.#text('abilities'));
  }
  get attacks(): CatalogAttack[] {
    return split(this.#text('attacks')).map((attack) => {
      const [name = '', damage = ''] = attack.split('~');
      return { name, damage: damage === '' ? null : damage };
    });
  }
  get weaknesses(): string[] {
    return split(this.#text('weaknesses'));
  }
  get resistances(): string[] {
    return split(this.#text('resistances'));
  }
  get retreat(): number | null {
    const text = this.#text('retreat');
    return text === '' ? null : Number(text);
  }
  get regulationMark(): string | null {
    return this.#optional('regulationMark');
  }
  toJSON(): object {
    const { id, number, name, supertype, subtypes, hp, types, rarity, artist, dex } = this;
    const { evolvesFrom, level, abilities, attacks, weaknesses, resistances, retreat, regulationMark } = this;
    return { id, set: this.set, number, name, supertype, subtypes, hp, types, rarity, artist, dex, evolvesFrom, level, abilities, attacks, weaknesses, resistances, retreat, regulationMark };
  }
}

/** Each distinct key of the texts `column` points at, numbered; and each card's key number. */
function keyColumn(strings: readonly string[], column: IndexArray, keyOf: (text: string) => string): { keys: string[]; firstText: number[]; byKey: Map<string, number>; ofCard: IndexArray } {
  const keyOfString = new Map<number, number>();
  const keys: string[] = [];
  const firstText: number[] = [];
  const byKey = new Map<string, number>();
  const ofCard = indexArray(column.length, strings.length);
  for (let i = 0; i < column.length; i++) {
    const text = column[i]!;
    let key = keyOfString.get(text);
    if (key === undefined) {
      const k = keyOf(strings[text]!);
      key = byKey.get(k);
      if (key === undefined) {
        key = keys.length;
        keys.push(k);
        firstText.push(text);
        byKey.set(k, key);
      }
      keyOfString.set(text, key);
    }
    ofCard[i] = key;
  }
  return { keys, firstText, byKey, ofCard };
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
  const { strings } = data;
  const count = data.cards.set.length;
  const columns = {} as Record<CardColumn, IndexArray>;
  for (const column of CARD_COLUMNS) {
    const values = data.cards[column];
    if (values.length !== count) throw new Error(`catalogue column ${column}: ${values.length} cards, expected ${count}`);
    columns[column] = indexArray(count, column === 'set' ? sets.length : strings.length);
    columns[column].set(values);
  }
  const table: CardTable = { strings, sets, columns };

  const made: (CompactCard | undefined)[] = new Array<CompactCard | undefined>(count);
  const card = (index: number): CatalogCard => (made[index] ??= new CompactCard(table, index));
  let all: CatalogCard[] | undefined;

  const numbers = keyColumn(strings, columns.number, numberKey);
  const byNumber = groupBy(numbers.ofCard, numbers.keys.length);
  const names = keyColumn(strings, columns.name, nameKey);
  const byName = groupBy(names.ofCard, names.keys.length);
  const cardsOf = (group: Grouped, key: number) => Array.from(group.items.subarray(group.starts[key], group.starts[key + 1]), card);

  const setIndex = new Map(sets.map((set, i) => [set.id, i]));
  /** Only the few ids that are not `<set>-<number>`; the rest are found by their set and number. */
  const oddIds = new Map<string, number>();
  for (let i = 0; i < count; i++) if (columns.id[i] !== 0) oddIds.set(strings[columns.id[i]!]!, i);
  const setsByCode = new Map<string, CatalogSet[]>();
  for (const set of sets) if (set.code) setsByCode.set(set.code.toUpperCase(), [...(setsByCode.get(set.code.toUpperCase()) ?? []), set]);

  /** Cards whose number is `number`, those of the sets `inSet` accepts. */
  const numberCards = (number: string, inSet: (set: CatalogSet) => boolean = () => true) => {
    const key = numbers.byKey.get(numberKey(number));
    const found: CatalogCard[] = [];
    if (key === undefined) return found;
    for (let at = byNumber.starts[key]!; at < byNumber.starts[key + 1]!; at++) {
      const i = byNumber.items[at]!;
      if (inSet(sets[columns.set[i]!]!)) found.push(card(i));
    }
    return found;
  };
  /** The card of that number in the set: the first in the source's order, one with a plain id before an odd one. */
  function inSet(setId: string, number: string): CatalogCard | undefined {
    const set = setIndex.get(setId);
    const key = numbers.byKey.get(numberKey(number));
    if (set === undefined || key === undefined) return undefined;
    let odd: number | undefined;
    for (let at = byNumber.starts[key]!; at < byNumber.starts[key + 1]!; at++) {
      const i = byNumber.items[at]!;
      if (columns.set[i] !== set) continue;
      if (columns.id[i] === 0) return card(i);
      odd ??= i;
    }
    return odd === undefined ? undefined : card(odd);
  }

  /**
   * Each attack and ability name (as a nameKey, five letters or more) and the cards printing it, grouped as the
   * other lookups are (typed arrays: about 1 MB); made on first use.
   */
  let moves: { keys: string[]; names: string[]; cards: Grouped } | undefined;
  const moveIndex = () => {
    if (moves) return moves;
    const keys: string[] = [];
    const names: string[] = [];
    const byKey = new Map<string, number>();
    const moveOf: number[] = [];
    const cardOf: number[] = [];
    for (let i = 0; i < count; i++) {
      const printed = [...split(strings[columns.attacks[i]!]!).map((attack) => attack.split('~')[0]!), ...split(strings[columns.abilities[i]!]!)];
      for (const name of new Set(printed)) {
        const key = nameKey(name);
        if (key.length < 5) continue;
        let move = byKey.get(key);
        if (move === undefined) {
          move = keys.push(key) - 1;
          names.push(name);
          byKey.set(key, move);
        }
        moveOf.push(move);
        cardOf.push(i);
      }
    }
    const grouped = groupBy(Uint32Array.from(moveOf), keys.length);
    // groupBy gives positions in moveOf; the cards are what those positions hold.
    const items = indexArray(grouped.items.length, count);
    for (let at = 0; at < items.length; at++) items[at] = cardOf[grouped.items[at]!]!;
    moves = { keys, names, cards: { starts: grouped.starts, items } };
    return moves;
  };
  /** Cards by the name they evolve from (its nameKey); made on first use. */
  let evolutions: { byKey: Map<string, number>; cards: Grouped } | undefined;

  return {
    source: data.source,
    fetched: data.fetched,
    sets,
    evolutionsOf(name) {
      if (!evolutions) {
        // Keyed as the names are ('' is the cards that evolve from nothing).
        const from = keyColumn(strings, columns.evolvesFrom, nameKey);
        evolutions = { byKey: from.byKey, cards: groupBy(from.ofCard, from.keys.length) };
      }
      const key = nameKey(name);
      const at = key === '' ? undefined : evolutions.byKey.get(key);
      return at === undefined ? [] : cardsOf(evolutions.cards, at);
    },
    byMoveInLines(lineKeys, holds) {
      const { keys, names: moveNames, cards: printing } = moveIndex();
      const found = new Set<number>();
      for (let move = 0; move < keys.length; move++) {
        // Cheap first: a misread name still shows its first or last three letters somewhere in a line.
        const key = keys[move]!;
        const head = key.slice(0, 3);
        const tail = key.slice(-3);
        if (!lineKeys.some((line) => (line.includes(head) || line.includes(tail)) && holds(line, moveNames[move]!))) continue;
        for (const i of printing.items.subarray(printing.starts[move], printing.starts[move + 1])) found.add(i);
      }
      return [...found].map(card);
    },
    get cards() {
      all ??= Array.from({ length: count }, (_, i) => card(i));
      return all;
    },
    byId(id) {
      const odd = oddIds.get(id);
      if (odd !== undefined) return card(odd);
      const dash = id.indexOf('-');
      if (dash <= 0) return undefined;
      const found = inSet(id.slice(0, dash), id.slice(dash + 1));
      return found?.id === id ? found : undefined;
    },
    bySetNumber: inSet,
    byNumber: (number) => numberCards(number),
    byPrintedNumber(number, total) {
      const totalDigits = Number(total.replace(/\D/g, ''));
      if (!Number.isFinite(totalDigits) || totalDigits === 0) return [];
      return numberCards(number, (set) => set.printedTotal === totalDigits);
    },
    setsByCode: (code) => setsByCode.get(code.toUpperCase()) ?? [],
    byName(name, options = {}) {
      const minSimilarity = options.minSimilarity ?? 0.7;
      const key = nameKey(name);
      if (key.length === 0) return [];
      const found: { key: number; similarity: number; name: string }[] = [];
      const exact = names.byKey.get(key);
      if (exact !== undefined) found.push({ key: exact, similarity: 1, name: strings[names.firstText[exact]!]! });
      const limit = Math.floor((1 - minSimilarity) * key.length) + 2;
      for (let k = 0; k < names.keys.length; k++) {
        if (k === exact) continue;
        const other = names.keys[k]!;
        const distance = editDistance(key, other, limit);
        if (distance > limit) continue;
        const similarity = 1 - distance / Math.max(key.length, other.length);
        if (similarity >= minSimilarity) found.push({ key: k, similarity, name: strings[names.firstText[k]!]! });
      }
      found.sort((a, b) => b.similarity - a.similarity || a.name.localeCompare(b.name));
      return found.slice(0, options.limit ?? 10).map(({ key: k, similarity, name: shown }) => ({ name: shown, similarity, cards: cardsOf(byName, k) }));
    },
  };
}
