// npm run bench:corner-steadiness -- [DIR]: how steady the corner readings are against the outline they are read from
// (issue 30). An outline is known to about half a photo pixel, so a corner's reading should not change when the
// outline moves that far. For each photo of DIR/labels.json (default ../shared/graded), the card's outline as the
// grading service found it (bench:graded's cache, measured afresh where missing), on the photo decoded at the size
// the service measured, is moved by half a pixel each way along each axis, and the four corners are read again from
// each. A corner is unsteady when its five readings (defectMm) span more than UNSTEADY_SPAN_MM. Prints each photo
// with an unsteady corner and its readings (the unmoved outline's first), then per photo set the share of corners
// read unsteadily and the largest span.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Point } from '../src/contracts/measurement.ts';
import { formatOfQuad } from '../src/vision/card-formats.ts';
import { decodeImage } from '../src/vision/decode.ts';
import { normaliseExposure } from '../src/vision/exposure.ts';
import { cardPxPerMm } from '../src/vision/geometry.ts';
import type { DecodedImage } from '../src/vision/image.ts';
import { cornersAround, OUTLINE_SHIFTS_PX, warpRim } from '../src/vision/measure-side.ts';
import { backgroundNoise, outlineRiseMm, rimStartMm } from '../src/vision/rim.ts';
import { MEASURE_MAX_SIDE } from '../src/workers/grading/index.ts';
import { DEFAULT_GRADED_DIR, measureGradedPhotos } from './graded-photos.ts';

/** The outline as found, and moved as the service moves it to read the corners: how well an outline is known. */
const SHIFTS_PX = [[0, 0] as const, ...OUTLINE_SHIFTS_PX];
/** Readings of one corner further apart than this are not one reading: the first step of corner wear GRADING.md sees is 0.1 mm. */
const UNSTEADY_SPAN_MM = 0.5;
const MAX_PIXELS = 60_000_000;

const dir = path.resolve(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? DEFAULT_GRADED_DIR);
const { photos, engine } = await measureGradedPhotos(dir);

/** The four corners' defectMm read from `quad` as measureSide reads them (its rim, its corner step, its readings round the outline). */
function cornerReadings(image: DecodedImage, quad: readonly Point[]): number[] {
  const format = formatOfQuad(quad);
  const sourcePxPerMm = cardPxPerMm(quad, format);
  const rim = warpRim(image, quad, format, sourcePxPerMm);
  return cornersAround(image, quad, format, sourcePxPerMm, { rim, rimStart: rimStartMm(outlineRiseMm(rim)), noise: backgroundNoise(rim) }).corners.map((c) => c.defectMm);
}

console.log(`bench:corner-steadiness ${dir}: engine ${engine}; outline moved ±0.5 px along each axis; unsteady: readings spanning more than ${UNSTEADY_SPAN_MM} mm`);
const bySet = new Map<string, { corners: number; unsteady: number; widest: number }>();
for (const photo of photos) {
  if (!photo.measured.ok) continue;
  const { quad, image: size } = photo.measured.front;
  // Decoded at the size the service measured (larger than MEASURE_MAX_SIDE for a card small in the photo), so the
  // unmoved outline reads what bench:graded read; its outline scaled where the sizes still differ.
  const maxSide = Math.max(MEASURE_MAX_SIDE, size.width, size.height);
  const decoded = await decodeImage(new Uint8Array(await readFile(path.join(dir, photo.label.file))), { maxPixels: MAX_PIXELS, maxSide });
  const scale = decoded.width / size.width;
  const image = normaliseExposure(decoded);
  const readings = SHIFTS_PX.map(([dx, dy]) => cornerReadings(image, quad.map((p) => ({ x: p.x * scale + dx, y: p.y * scale + dy }))));
  const spans = [0, 1, 2, 3].map((k) => Math.max(...readings.map((r) => r[k]!)) - Math.min(...readings.map((r) => r[k]!)));
  const set = bySet.get(photo.set) ?? { corners: 0, unsteady: 0, widest: 0 };
  set.corners += 4;
  set.unsteady += spans.filter((span) => span > UNSTEADY_SPAN_MM).length;
  set.widest = Math.max(set.widest, ...spans);
  bySet.set(photo.set, set);
  if (spans.some((span) => span > UNSTEADY_SPAN_MM)) {
    const corner = (k: number) => readings.map((r) => r[k]!.toFixed(2)).join('/');
    console.log(`${photo.label.file.slice(0, 40).padEnd(40)} PSA ${String(photo.label.grade).padStart(2)}  ${[0, 1, 2, 3].filter((k) => spans[k]! > UNSTEADY_SPAN_MM).map((k) => `${['top-left', 'top-right', 'bottom-right', 'bottom-left'][k]} ${corner(k)}`).join('  ')}`);
  }
}
console.log('\nper set:');
for (const [set, { corners, unsteady, widest }] of [...bySet].sort()) {
  console.log(`  ${set.padEnd(6)} ${unsteady} of ${corners} corners unsteady (${Math.round((unsteady / corners) * 100)}%), widest span ${widest.toFixed(2)} mm`);
}
