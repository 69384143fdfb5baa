// Grades a card from its photos, for people and audits:
//   npm run grade -- front.jpg [back.jpg] [--out dir] [--no-identify]
// A card in a grader's slab has its label read, as the API does.
// Prints the full result as JSON on stdout and writes the annotated pictures (PNG) to --out (default: here).
// A photo that cannot be graded prints { error, code } and exits with status 2; any other failure, status 1.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { loadConfig } from '../src/config.ts';
import { AppError } from '../src/contracts/errors.ts';
import { createCpuPool } from '../src/infra/cpu-pool/index.ts';
import { createCardIdentifier, noIdentifier } from '../src/infra/identification/index.ts';
import { createSlabLabelReader } from '../src/infra/identification/slab-label-reader.ts';
import { gradeCard } from '../src/workers/grading/index.ts';

const usage = 'usage: npm run grade -- front.jpg [back.jpg] [--out dir] [--no-identify]';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { out: { type: 'string', default: '.' }, 'no-identify': { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
});
if (values.help || positionals.length < 1 || positionals.length > 2) {
  console.error(usage);
  process.exit(values.help ? 0 : 1);
}

sharp.cache(false);
const config = loadConfig(process.env);
const [frontPath, backPath] = positionals as [string, string | undefined];
const cpuPool = createCpuPool({ size: Math.min(2, config.CPU_POOL_SIZE) });
const identifier = values['no-identify']
  ? noIdentifier
  : createCardIdentifier(config, (reason) => console.error(`vision model not used (${reason}); OCR result instead`));

// As the API: a card photographed in a slab has its label read (offline OCR, started only when a label is found).
const labelReader = createSlabLabelReader({ onError: (error) => console.error('slab label not read; card graded as raw:', error) });

const annotatedName = (photo: string) => path.join(values.out, `${path.parse(photo).name}.annotated.png`);

try {
  const [front, back] = await Promise.all([readFile(frontPath), backPath ? readFile(backPath) : undefined]);
  const graded = await gradeCard(back ? { front, back } : { front }, { cpuPool, identifier, labelReader, maxPixels: config.IMAGE_MAX_PIXELS });
  await mkdir(values.out, { recursive: true });
  await writeFile(annotatedName(frontPath), graded.annotated.front);
  if (backPath && graded.annotated.back) await writeFile(annotatedName(backPath), graded.annotated.back);
  process.stdout.write(`${JSON.stringify(graded.card, null, 2)}\n`);
  console.error(`annotated: ${[frontPath, ...(backPath ? [backPath] : [])].map(annotatedName).join(', ')}`);
} catch (error) {
  if (error instanceof AppError) {
    process.stdout.write(`${JSON.stringify({ error: error.message, code: error.code }, null, 2)}\n`);
    console.error(`not graded: ${error.code}`);
    process.exitCode = 2;
  } else {
    console.error(error);
    process.exitCode = 1;
  }
} finally {
  await Promise.all([cpuPool.close(), identifier.close(), labelReader.close()]);
}
