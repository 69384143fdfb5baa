import type { SyntheticCardSpec } from './spec.ts';

/** Draws a card of known geometry and defects, photographed as `spec.photo` says; same spec and seed, same bytes. */
export async function renderSyntheticCard(_spec: SyntheticCardSpec, _seed: number): Promise<Uint8Array> {
  throw new Error('renderSyntheticCard: not implemented yet');
}
