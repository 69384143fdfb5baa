import { describe, expect, it } from 'vitest';
import type { SideMeasurement } from '../../src/contracts/measurement.ts';
import { decodeImage, measureSide, renderSyntheticCard } from '../../src/vision/index.ts';
import type { SyntheticCardSpec, SyntheticDefect } from '../../src/vision/index.ts';
import measureTask from '../../src/vision/measure-task.ts';
import { MAX_PIXELS, measureSynthetic, noisyCard } from './synthetic-photos.ts';

const BASE = noisyCard({ borderColor: '#1d3f8f', borders: { leftMm: 3.4, rightMm: 2.6, topMm: 3.2, bottomMm: 2.8 }, photo: { rotationDeg: 4, keystone: 0.03 } });
const SEED = 51;
const withDefect = (...defects: SyntheticDefect[]): SyntheticCardSpec => ({ ...BASE, defects });

/** What each kind of defect moves; every other reading should stay put. */
function readings(m: SideMeasurement) {
  if (!m.centering.measurable) throw new Error('centering not measured');
  return {
    borders: [m.centering.leftMm, m.centering.rightMm, m.centering.topMm, m.centering.bottomMm],
    corners: m.corners.map((c) => c.defectMm),
    nicks: m.edges.map((e) => Math.max(0, ...e.nicks.map((n) => n.depthMm))),
    edgeWhitening: m.edges.map((e) => e.whitenedMm ?? 0),
    scratches: m.surface.scratchLengthMm,
    spots: m.surface.spotCount,
  };
}

describe('a defect of one kind barely moves the other measurements', () => {
  let cleanCard: Promise<SideMeasurement> | undefined;
  it.each([
    ['a whitened corner', { kind: 'whitened-corner', corner: 'topLeft', lengthMm: 1.5 }, 'corners'],
    ['a worn corner', { kind: 'worn-corner', corner: 'bottomLeft', radiusMm: 5 }, 'corners'],
    ['a nick', { kind: 'nick', edge: 'top', atMm: 30, depthMm: 0.6 }, 'nicks'],
    ['a whitened edge', { kind: 'whitened-edge', edge: 'left', atMm: 45, lengthMm: 6 }, 'edgeWhitening'],
    ['a scratch', { kind: 'scratch', x: 32, y: 40, lengthMm: 20, angleDeg: 120 }, 'scratches'],
    ['a spot', { kind: 'spot', x: 40, y: 60, diameterMm: 0.8 }, 'spots'],
  ] as Array<[string, SyntheticDefect, keyof ReturnType<typeof readings>]>)('%s', async (_name, defect, moves) => {
    cleanCard ??= measureSynthetic(BASE, SEED);
    const clean = readings(await cleanCard);
    const damaged = readings(await measureSynthetic(withDefect(defect), SEED));
    expect(damaged[moves]).not.toEqual(clean[moves]);
    for (const key of Object.keys(clean) as Array<keyof typeof clean>) {
      if (key === moves) continue;
      const before = [clean[key]].flat();
      const after = [damaged[key]].flat();
      // Borders within 0.05 mm, corner D and nick depth within 0.05 mm, lengths and counts unchanged.
      after.forEach((value, i) => expect(Math.abs(value - before[i]!)).toBeLessThanOrEqual(key === 'borders' || key === 'corners' || key === 'nicks' ? 0.05 : 0));
    }
  });
});

describe('a larger defect never measures smaller', () => {
  const sizes = async (make: (size: number) => SyntheticDefect, sizesToTry: number[], read: (m: SideMeasurement) => number) => {
    const measured: number[] = [];
    for (const size of sizesToTry) measured.push(read(await measureSynthetic(withDefect(make(size)), SEED)));
    return measured;
  };
  const increasing = (values: number[]) => values.slice(1).forEach((value, i) => expect(value).toBeGreaterThan(values[i]!));

  it('nicks', async () => {
    increasing(await sizes((depthMm) => ({ kind: 'nick', edge: 'right', atMm: 50, depthMm }), [0.2, 0.4, 0.8], (m) => m.edges[1]!.nicks[0]?.depthMm ?? 0));
  });
  it('whitened corners', async () => {
    increasing(await sizes((lengthMm) => ({ kind: 'whitened-corner', corner: 'bottomRight', lengthMm }), [0.5, 1, 2], (m) => m.corners[2]!.defectMm));
  });
  it('worn corners', async () => {
    increasing(await sizes((radiusMm) => ({ kind: 'worn-corner', corner: 'topRight', radiusMm }), [4, 5, 6.5], (m) => m.corners[1]!.frayMm));
  });
  it('scratches', async () => {
    increasing(await sizes((lengthMm) => ({ kind: 'scratch', x: 30, y: 50, lengthMm, angleDeg: 75 }), [4, 8, 16], (m) => m.surface.scratchLengthMm));
  });
});

describe('determinism', () => {
  it('the same seed draws the same photo, byte for byte', async () => {
    const spec = withDefect({ kind: 'scratch', x: 30, y: 50, lengthMm: 10, angleDeg: 20 });
    expect(Buffer.from(await renderSyntheticCard(spec, 7)).equals(Buffer.from(await renderSyntheticCard(spec, 7)))).toBe(true);
    expect(Buffer.from(await renderSyntheticCard(spec, 8)).equals(Buffer.from(await renderSyntheticCard(spec, 7)))).toBe(false);
  });

  it('the same bytes give byte-identical JSON, here and through the worker task', async () => {
    const bytes = await renderSyntheticCard(withDefect({ kind: 'nick', edge: 'left', atMm: 60, depthMm: 0.4 }, { kind: 'spot', x: 20, y: 30, diameterMm: 0.7 }), 9);
    const first = JSON.stringify(measureSide(await decodeImage(bytes, { maxPixels: MAX_PIXELS }), 'front'));
    const image = await decodeImage(Uint8Array.from(bytes), { maxPixels: MAX_PIXELS });
    const second = JSON.stringify(measureSide(image, 'front'));
    // The piscina task receives the pixels as a transferred ArrayBuffer.
    const copy = image.data.slice().buffer;
    const third = JSON.stringify(measureTask({ data: copy, width: image.width, height: image.height, channels: 3, side: 'front' }));
    expect(second).toBe(first);
    expect(third).toBe(first);
    // Reported numbers are rounded: no float dust in the JSON.
    expect(first).not.toMatch(/\d\.\d{3,}/);
  });
});
