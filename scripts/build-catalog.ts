// Compiles the card catalogue the app ships and identifies cards with, offline:
//   npm run build:catalog -- [path/to/pokemon-tcg-en.json]   (default ../shared/catalog/pokemon-tcg-en.json)
// Reads the catalogue of every English Pokémon TCG card (facts only, see its README) and writes
// assets/catalog/pokemon-tcg-en.json.br: the same facts as columns (one array per field, a card per position) of
// indexes into one table of every distinct text, Brotli-compressed (with each card's face facts: attacks, abilities,
// evolves-from, level, weaknesses, resistances, retreat, regulation mark, for identifying it by what is printed); the app keeps them so in memory
// (src/domain/catalog). The source's own id is kept only where it is not `<set>-<number>`. Run it again when a newer
// copy comes out.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';
import { z } from 'zod';
import { CARD_COLUMNS, COMPILED_CATALOG_VERSION, type CardColumn, type CompiledCatalog } from '../src/domain/catalog/index.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const input = path.resolve(process.argv[2] ?? path.join(repoRoot, '../shared/catalog/pokemon-tcg-en.json'));
const output = path.join(repoRoot, 'assets/catalog/pokemon-tcg-en.json.br');

const sourceSchema = z.object({
  source: z.string(),
  fetched: z.string(),
  sets: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      series: z.string(),
      printedTotal: z.number().int(),
      total: z.number().int(),
      ptcgoCode: z.string().nullish(),
      releaseDate: z.string(),
    }),
  ),
  cards: z.array(
    z.object({
      id: z.string(),
      set: z.string(),
      number: z.string(),
      name: z.string(),
      supertype: z.string(),
      subtypes: z.array(z.string()).nullish(),
      hp: z.union([z.string(), z.number()]).nullish().transform((v) => (v === null || v === undefined ? null : String(v))),
      types: z.array(z.string()).nullish(),
      rarity: z.string().nullish(),
      artist: z.string().nullish(),
      dex: z.array(z.number().int()).nullish(),
      evolvesFrom: z.string().nullish(),
      level: z.string().nullish(),
      abilities: z.array(z.string()).nullish(),
      attacks: z.array(z.object({ name: z.string(), damage: z.string().nullish() })).nullish(),
      weaknesses: z.array(z.string()).nullish(),
      resistances: z.array(z.string()).nullish(),
      retreat: z.number().int().nullish(),
      regulationMark: z.string().nullish(),
    }),
  ),
});

const parsed = sourceSchema.safeParse(JSON.parse(await readFile(input, 'utf8')));
if (!parsed.success) {
  console.error(`${input} is not a catalogue as expected (${parsed.error.issues.length} problems), first: ${JSON.stringify(parsed.error.issues[0])}`);
  process.exit(1);
}
const source = parsed.data;
const setIndex = new Map(source.sets.map((set, i) => [set.id, i]));
const strings = [''];
const stringIndex = new Map([['', 0]]);
const text = (value: string) => {
  let index = stringIndex.get(value);
  if (index === undefined) {
    index = strings.push(value) - 1;
    stringIndex.set(value, index);
  }
  return index;
};
/** '|' separates a list's items and '~' an attack's name from its damage: no text may hold them. */
const listed = (items: readonly string[]) => {
  for (const item of items) if (item.includes('|')) throw new Error(`catalogue text ${JSON.stringify(item)} holds the separator |`);
  return items.join('|');
};
const attack = (a: { name: string; damage?: string | null }) => {
  if (a.name.includes('~') || a.damage?.includes('~')) throw new Error(`attack ${JSON.stringify(a)} holds the separator ~`);
  return `${a.name}~${a.damage ?? ''}`;
};
const cards = Object.fromEntries(CARD_COLUMNS.map((column) => [column, [] as number[]])) as Record<CardColumn, number[]>;
for (const c of source.cards) {
  const set = setIndex.get(c.set);
  if (set === undefined) throw new Error(`card ${c.id}: unknown set ${c.set}`);
  const row: Record<CardColumn, number> = {
    set,
    number: text(c.number),
    name: text(c.name),
    supertype: text(c.supertype),
    subtypes: text((c.subtypes ?? []).join('|')),
    hp: text(c.hp ?? ''),
    types: text((c.types ?? []).join('|')),
    rarity: text(c.rarity ?? ''),
    artist: text(c.artist ?? ''),
    dex: text((c.dex ?? []).join('|')),
    id: text(c.id === `${c.set}-${c.number}` ? '' : c.id),
    evolvesFrom: text(c.evolvesFrom ?? ''),
    level: text(c.level ?? ''),
    abilities: text(listed(c.abilities ?? [])),
    attacks: text(listed((c.attacks ?? []).map(attack))),
    weaknesses: text(listed(c.weaknesses ?? [])),
    resistances: text(listed(c.resistances ?? [])),
    retreat: text(c.retreat === null || c.retreat === undefined ? '' : String(c.retreat)),
    regulationMark: text(c.regulationMark ?? ''),
  };
  for (const column of CARD_COLUMNS) cards[column].push(row[column]);
}
const compiled: CompiledCatalog = {
  version: COMPILED_CATALOG_VERSION,
  source: source.source,
  fetched: source.fetched,
  strings,
  sets: source.sets.map((s) => [s.id, s.name, s.series, s.printedTotal, s.total, s.ptcgoCode ?? '', s.releaseDate.replaceAll('/', '-')]),
  cards,
};
const json = Buffer.from(JSON.stringify(compiled));
const packed = brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: json.length } });
await writeFile(output, packed);
console.log(`${source.cards.length} cards in ${source.sets.length} sets (${source.fetched}): ${path.relative(repoRoot, output)}, ${(packed.length / 1024).toFixed(0)} kB (${(json.length / 1024).toFixed(0)} kB uncompressed)`);
