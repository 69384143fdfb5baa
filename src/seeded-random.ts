/**
 * A small seeded generator of uniform numbers in [0, 1) (mulberry32): the same seed draws the same numbers on every
 * run and machine. Drawn cards, replayed histories and the calibration's bootstrap use it, so what they produce can be
 * reproduced exactly.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
