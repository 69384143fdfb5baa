// Compiles the card catalogue the app ships and identifies cards with, offline:
//   npm run build:catalog -- [path/to/pokemon-tcg-en.json]   (default ../shared/catalog/pokemon-tcg-en.json)
// Reads the catalogue of every English Pokémon TCG card (facts only, see its README) and writes
// assets/catalog/pokemon-tcg-en.json.br: the same facts as arrays instead of objects, Brotli-compressed.
// The source's own id is kept only where it is not `<set>-<number>`. Run it again when a newer copy comes out.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';
import { z } from 'zod';
import { COMPILED_CATALOG_VERSION, type CompiledCatalog } from '../src/domain/catalog/index.ts';

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
const compiled: CompiledCatalog = {
  version: COMPILED_CATALOG_VERSION,
  source: source.source,
  fetched: source.fetched,
  sets: source.sets.map((s) => [s.id, s.name, s.series, s.printedTotal, s.total, s.ptcgoCode ?? '', s.releaseDate.replaceAll('/', '-')]),
  cards: source.cards.map((c) => {
    const set = setIndex.get(c.set);
    if (set === undefined) throw new Error(`card ${c.id}: unknown set ${c.set}`);
    return [
      set,
      c.number,
      c.name,
      c.supertype,
      (c.subtypes ?? []).join('|'),
      c.hp ?? '',
      (c.types ?? []).join('|'),
      c.rarity ?? '',
      c.artist ?? '',
      (c.dex ?? []).join('|'),
      c.id === `${c.set}-${c.number}` ? '' : c.id,
    ];
  }),
};
const json = Buffer.from(JSON.stringify(compiled));
const packed = brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: json.length } });
await writeFile(output, packed);
console.log(`${source.cards.length} cards in ${source.sets.length} sets (${source.fetched}): ${path.relative(repoRoot, output)}, ${(packed.length / 1024).toFixed(0)} kB (${(json.length / 1024).toFixed(0)} kB uncompressed)`);
