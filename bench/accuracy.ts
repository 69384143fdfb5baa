// npm run bench:accuracy: how closely the engine measures what was drawn, on 12-megapixel photos decoded the way
// grading decodes them (longer side MEASURE_MAX_SIDE), and, in the same run, at a larger decode for comparison.
// Clean cards: border widths and centering ratios against the drawn ones, and any defect reported is a false one.
// Damaged cards: every drawn defect must be found once, its size against the drawn size.
// BENCH_CARDS (default 16) clean and as many damaged photos; drawing them takes most of the time.
import os from 'node:os';
import type { Defect, SideMeasurement } from '../src/contracts/measurement.ts';
import { decodeImage, measureSide, renderSyntheticCard } from '../src/vision/index.ts';
import type { SyntheticBorders, SyntheticCardSpec, SyntheticDefect } from '../src/vision/index.ts';
import { Prng } from '../src/vision/synthetic/prng.ts';
import { MEASURE_MAX_SIDE } from '../src/workers/grading/index.ts';

const CARDS = Math.max(4, Number(process.env.BENCH_CARDS ?? 16));
const PHOTO_HEIGHT = 4032; // 3024 × 4032
const CARD_SCALE = 0.75;
const MAX_PIXELS = 50_000_000;
const DECODE_SIZES = [MEASURE_MAX_SIDE, 2016];

function photoSpec(rng: Prng, borders: SyntheticBorders, defects: SyntheticDefect[]): SyntheticCardSpec {
  return {
    pxPerMm: (PHOTO_HEIGHT * CARD_SCALE) / 88,
    borders,
    borderColor: rng.pick(['#e8c33a', '#1d3f8f', '#b0282a', '#2f7a45', '#b8bcc2']),
    defects,
    photo: { aspect: 0.75, cardScale: CARD_SCALE, noise: 3, rotationDeg: rng.range(-10, 10), keystone: rng.range(0, 0.05) },
  };
}

const randomBorders = (rng: Prng): SyntheticBorders => ({
  leftMm: rng.range(1.8, 4.6),
  rightMm: rng.range(1.8, 4.6),
  topMm: rng.range(1.8, 4.6),
  bottomMm: rng.range(1.8, 4.6),
});

/** One defect of each size-graded kind, placed by the seed; the kind the engine reports and the size it should give. */
function randomDefect(rng: Prng, index: number): { drawn: SyntheticDefect; kind: Defect['kind']; sizeMm: number } {
  const corner = rng.pick(['topLeft', 'topRight', 'bottomRight', 'bottomLeft'] as const);
  const edge = rng.pick(['top', 'right', 'bottom', 'left'] as const);
  const along = edge === 'top' || edge === 'bottom' ? rng.range(15, 48) : rng.range(20, 68);
  switch (index % 5) {
    case 0: {
      const lengthMm = rng.range(0.6, 2);
      return { drawn: { kind: 'whitened-corner', corner, lengthMm }, kind: 'corner-whitening', sizeMm: lengthMm };
    }
    case 1: {
      const depthMm = rng.range(0.3, 1);
      return { drawn: { kind: 'nick', edge, atMm: along, depthMm }, kind: 'edge-nick', sizeMm: depthMm };
    }
    case 2: {
      const lengthMm = rng.range(3, 10);
      return { drawn: { kind: 'whitened-edge', edge, atMm: along, lengthMm }, kind: 'edge-whitening', sizeMm: lengthMm };
    }
    case 3: {
      const lengthMm = rng.range(5, 25);
      return { drawn: { kind: 'scratch', x: rng.range(20, 43), y: rng.range(25, 63), lengthMm, angleDeg: rng.range(0, 180) }, kind: 'scratch', sizeMm: lengthMm };
    }
    default: {
      const diameterMm = rng.range(0.5, 1.5);
      return { drawn: { kind: 'spot', x: rng.range(12, 51), y: rng.range(15, 73), diameterMm }, kind: 'spot', sizeMm: diameterMm };
    }
  }
}

interface Photo {
  bytes: Uint8Array;
  borders: SyntheticBorders;
  expected: Array<{ kind: Defect['kind']; sizeMm: number }>;
}

async function drawPhotos(): Promise<{ clean: Photo[]; damaged: Photo[] }> {
  const clean: Photo[] = [];
  const damaged: Photo[] = [];
  for (let i = 0; i < CARDS; i++) {
    const rng = new Prng(1000 + i);
    const borders = randomBorders(rng);
    clean.push({ bytes: await renderSyntheticCard(photoSpec(rng, borders, []), 1000 + i), borders, expected: [] });
    const defect = randomDefect(rng, i);
    const damagedBorders = randomBorders(rng);
    damaged.push({
      bytes: await renderSyntheticCard(photoSpec(rng, damagedBorders, [defect.drawn]), 2000 + i),
      borders: damagedBorders,
      expected: [{ kind: defect.kind, sizeMm: defect.sizeMm }],
    });
  }
  return { clean, damaged };
}

const worstShare = (a: number, b: number) => (100 * Math.max(a, b)) / (a + b);

async function measureAt(photo: Photo, maxSide: number): Promise<SideMeasurement> {
  return measureSide(await decodeImage(photo.bytes, { maxPixels: MAX_PIXELS, maxSide }), 'front');
}

function summarise(maxSide: number, clean: SideMeasurement[], cleanPhotos: Photo[], damaged: SideMeasurement[], damagedPhotos: Photo[], pxPerMm: number) {
  const borderErrors: number[] = [];
  const ratioErrors: number[] = [];
  let falseDefects = 0;
  let unmeasured = 0;
  clean.forEach((m, i) => {
    const drawn = cleanPhotos[i]!.borders;
    falseDefects += m.defects.length;
    if (!m.centering.measurable) return void unmeasured++;
    const c = m.centering;
    borderErrors.push(c.leftMm - drawn.leftMm, c.rightMm - drawn.rightMm, c.topMm - drawn.topMm, c.bottomMm - drawn.bottomMm);
    ratioErrors.push(c.horizontal.worstShare - worstShare(drawn.leftMm, drawn.rightMm), c.vertical.worstShare - worstShare(drawn.topMm, drawn.bottomMm));
  });
  const rms = Math.sqrt(borderErrors.reduce((sum, e) => sum + e * e, 0) / borderErrors.length);
  const maxAbs = (values: number[]) => Math.max(...values.map(Math.abs));

  const sizeErrors = new Map<string, number[]>();
  let missed = 0;
  let extra = 0;
  damaged.forEach((m, i) => {
    for (const want of damagedPhotos[i]!.expected) {
      const found = m.defects.filter((d) => d.kind === want.kind);
      if (found.length === 0) {
        missed++;
        continue;
      }
      extra += found.length - 1;
      const errors = sizeErrors.get(want.kind) ?? [];
      errors.push(found[0]!.sizeMm - want.sizeMm);
      sizeErrors.set(want.kind, errors);
    }
    extra += m.defects.filter((d) => !damagedPhotos[i]!.expected.some((want) => want.kind === d.kind)).length;
  });

  console.log(`\ndecoded at ${maxSide} px: the card at ${pxPerMm.toFixed(1)} px/mm`);
  console.log(`  clean cards: ${clean.length}, centering not measured on ${unmeasured}, false defects ${falseDefects}`);
  console.log(`  border width error: RMS ${rms.toFixed(3)} mm, max ${maxAbs(borderErrors).toFixed(3)} mm; worst-side share error max ${maxAbs(ratioErrors).toFixed(2)} points`);
  console.log(`  damaged cards: ${damaged.length}, defects missed ${missed}, found twice or of another kind ${extra}`);
  for (const [kind, errors] of sizeErrors) {
    console.log(`    ${kind.padEnd(17)} ${String(errors.length).padStart(2)} found, size error max ${maxAbs(errors).toFixed(3)} mm (mean ${(errors.reduce((a, b) => a + b, 0) / errors.length).toFixed(3)})`);
  }
}

console.log(`drawing ${CARDS} clean and ${CARDS} damaged 12-MP photos (3024 × 4032, the card at ${((PHOTO_HEIGHT * CARD_SCALE) / 88).toFixed(1)} px/mm, ±10°, keystone ≤ 0.05, noise 3, JPEG q85) ...`);
console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
const started = performance.now();
const { clean, damaged } = await drawPhotos();
console.log(`drawn in ${((performance.now() - started) / 1000).toFixed(0)} s`);

for (const maxSide of DECODE_SIZES) {
  const cleanMeasured = [];
  for (const photo of clean) cleanMeasured.push(await measureAt(photo, maxSide));
  const damagedMeasured = [];
  for (const photo of damaged) damagedMeasured.push(await measureAt(photo, maxSide));
  summarise(maxSide, cleanMeasured, clean, damagedMeasured, damaged, (PHOTO_HEIGHT * CARD_SCALE * maxSide) / PHOTO_HEIGHT / 88);
}
