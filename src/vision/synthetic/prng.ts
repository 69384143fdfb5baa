import { seededRandom } from '../../seeded-random.ts';

/** A small seeded generator (mulberry32): the same seed draws the same card, on every machine. */
export class Prng {
  private readonly uniform: () => number;
  private spareGaussian: number | null = null;

  constructor(seed: number) {
    this.uniform = seededRandom(seed >>> 0 || 0x9e3779b9);
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uniform();
  }

  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  int(min: number, maxInclusive: number): number {
    return Math.floor(this.range(min, maxInclusive + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Standard normal (Box–Muller, both values used). */
  gaussian(): number {
    if (this.spareGaussian !== null) {
      const spare = this.spareGaussian;
      this.spareGaussian = null;
      return spare;
    }
    const u = 1 - this.next();
    const v = this.next();
    const radius = Math.sqrt(-2 * Math.log(u));
    this.spareGaussian = radius * Math.sin(2 * Math.PI * v);
    return radius * Math.cos(2 * Math.PI * v);
  }
}
