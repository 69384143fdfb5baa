import type { SideMeasurement } from '../../src/contracts/measurement.ts';
import { decodeImage, measureSide, renderSyntheticCard } from '../../src/vision/index.ts';
import type { SyntheticCardSpec } from '../../src/vision/index.ts';

/** Moderate photos keep the suite fast: the card at 14 px/mm in a ~2-MP photo. */
export const TEST_PX_PER_MM = 14;
export const MAX_PIXELS = 40_000_000;

/** A synthetic card photographed with camera noise (and JPEG q85, the generator's default). */
export function noisyCard(spec: SyntheticCardSpec = {}): SyntheticCardSpec {
  return { pxPerMm: TEST_PX_PER_MM, ...spec, photo: { noise: 4, ...spec.photo } };
}

export async function measureSynthetic(spec: SyntheticCardSpec, seed: number): Promise<SideMeasurement> {
  const image = await decodeImage(await renderSyntheticCard(spec, seed), { maxPixels: MAX_PIXELS });
  return measureSide(image, 'front');
}

/** Runs a promise expected to fail and returns what it threw. */
export async function failureOf(work: () => unknown): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal, got a result');
}
