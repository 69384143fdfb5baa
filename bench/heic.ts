// npm run bench:heic: how long a 12-MP HEIC takes from upload to result (POST /api/grade-card on a real listening
// server, embedded database) against the same picture as a 12-MP JPEG, in the same run, in turns, and the ratio
// (issue 35: at most 2). Then the parts: the HEIC's decode (libheif in WebAssembly, src/vision/heic.ts) against sharp
// decoding the JPEG, the grading decode of each (shrunk to MEASURE_MAX_SIDE) and the JPEG copy the pages show for a
// HEIC. Needs heif-enc (Debian's libheif-examples) to make the HEIC: no npm package here encodes HEVC.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { decodeHeic, decodeImage, displayCopy, renderSyntheticCard } from '../src/vision/index.ts';
import { MEASURE_MAX_SIDE } from '../src/workers/grading/index.ts';
import { migrateToLatest, openPglite } from '../src/infra/database/index.ts';
import { post, startServer } from './http-load.ts';

const RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 5));
const MAX_PIXELS = 50_000_000;
const PHOTO_HEIGHT = 4032; // 3024 × 4032: a 12-MP phone photo, portrait
/** About the size an iPhone's own 12-MP HEIC and JPEG are (1.5 to 3 MB) for a photo of this much detail. */
const HEIC_QUALITY = 60;
const JPEG_QUALITY = 90;

sharp.cache(false);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Upload to result: each photo posted alone as the front, by a new guest each time (so it is graded, not found),
 * JPEG and HEIC in turns after a warm-up of each; medians and the HEIC's over the JPEG's.
 */
async function uploadToResult(jpeg: Uint8Array, heic: Uint8Array): Promise<void> {
  const pglite = await openPglite();
  await migrateToLatest(pglite.db);
  const server = await startServer(pglite, { GRADE_LIMIT_GUEST_PER_MINUTE: '100000', GRADE_LIMIT_GUEST_PER_DAY: '100000' });
  const upload = async (bytes: Uint8Array, type: string, name: string) => {
    const body = new FormData();
    body.append('frontImage', new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), name);
    body.append('cardType', 'pokemon');
    const started = performance.now();
    const response = await post(server.port, '/api/grade-card', { body });
    const result = (await response.json()) as { id?: string; overallGrade?: number };
    if (!response.ok || !result.id) throw new Error(`grade-card answered ${response.status} for the ${name}: ${JSON.stringify(result)}`);
    return { ms: performance.now() - started, grade: result.overallGrade };
  };
  try {
    const photos = [
      { label: 'JPEG', run: () => upload(jpeg, 'image/jpeg', 'card.jpg') },
      { label: 'HEIC', run: () => upload(heic, 'image/heic', 'card.heic') },
    ];
    for (const photo of photos) await photo.run();
    const times = photos.map((): number[] => []);
    const grades = photos.map((): Array<number | undefined> => []);
    for (let i = 0; i < RUNS; i++) {
      for (const [index, photo] of photos.entries()) {
        const { ms, grade } = await photo.run();
        times[index]!.push(ms);
        grades[index]!.push(grade);
      }
    }
    const [jpegMs, heicMs] = [median(times[0]!), median(times[1]!)];
    for (const [index, photo] of photos.entries()) {
      console.log(`upload to result, ${photo.label} (12 MP, front only)`.padEnd(44) + ` median ${median(times[index]!).toFixed(0).padStart(5)} ms  (min ${Math.min(...times[index]!).toFixed(0)}, max ${Math.max(...times[index]!).toFixed(0)})  grade ${grades[index]![0]}`);
    }
    console.log(`HEIC over JPEG, upload to result: ${(heicMs / jpegMs).toFixed(2)}× (target: at most 2×)`);
  } finally {
    await server.close();
    await pglite.close();
  }
}

try {
  execFileSync('heif-enc', ['--help'], { stdio: 'ignore' });
} catch {
  console.error('heif-enc is missing: apt-get install libheif-examples');
  process.exit(1);
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-heic-'));
try {
  const pxPerMm = (PHOTO_HEIGHT * 0.75) / 88;
  const png = await renderSyntheticCard({ pxPerMm, photo: { cardScale: 0.75, aspect: 0.75, noise: 3, format: 'png' } }, 4);
  await writeFile(path.join(dir, 'card.png'), png);
  execFileSync('heif-enc', ['-q', String(HEIC_QUALITY), '-o', path.join(dir, 'card.heic'), path.join(dir, 'card.png')]);
  const heic = await readFile(path.join(dir, 'card.heic'));
  const jpeg = await sharp(png).jpeg({ quality: JPEG_QUALITY }).toBuffer();
  const { width, height } = await sharp(jpeg).metadata();
  console.log(`photo ${width} × ${height}: HEIC ${(heic.length / 1e6).toFixed(2)} MB (q${HEIC_QUALITY}), JPEG ${(jpeg.length / 1e6).toFixed(2)} MB (q${JPEG_QUALITY}); ${RUNS} runs each, in turns`);

  await uploadToResult(jpeg, heic);

  const pixels = await decodeHeic(heic, MAX_PIXELS);
  const tasks: Array<{ label: string; run: () => Promise<unknown> }> = [
    { label: 'JPEG, full size (sharp, the baseline)', run: () => sharp(jpeg).raw().toBuffer() },
    { label: 'HEIC, full size (libheif, RGBA)', run: () => decodeHeic(heic, MAX_PIXELS) },
    { label: `JPEG, grading decode (to ${MEASURE_MAX_SIDE} px)`, run: () => decodeImage(jpeg, { maxPixels: MAX_PIXELS, maxSide: MEASURE_MAX_SIDE }) },
    { label: `HEIC, grading decode (to ${MEASURE_MAX_SIDE} px)`, run: () => decodeImage(heic, { maxPixels: MAX_PIXELS, maxSide: MEASURE_MAX_SIDE }) },
    { label: "HEIC's JPEG copy for the pages", run: () => displayCopy(pixels) },
  ];
  for (const task of tasks) await task.run();
  const times = tasks.map((): number[] => []);
  for (let i = 0; i < RUNS; i++) {
    for (const [index, task] of tasks.entries()) {
      const started = performance.now();
      await task.run();
      times[index]!.push(performance.now() - started);
    }
  }
  const baseline = median(times[0]!);
  for (const [index, task] of tasks.entries()) {
    const result = median(times[index]!);
    console.log(`${task.label.padEnd(44)} median ${result.toFixed(0).padStart(5)} ms  (min ${Math.min(...times[index]!).toFixed(0)}, max ${Math.max(...times[index]!).toFixed(0)})  ${(result / baseline).toFixed(1)}× the JPEG`);
  }
  console.log(`peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
