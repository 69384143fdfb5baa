import { chroma, colourDistance, luma } from './image.ts';

/** Whitening is looked for this far in from the card's outline (GRADING.md §1.6: within 0.6 mm)... */
export const RIM_FROM_MM = 0.15; // ...starting clear of the pixels blended with the background at the outline itself.
export const RIM_TO_MM = 0.6;
/** ...against a reference ring of the card's own colour 1–2 mm inside. */
export const RING_FROM_MM = 1;
export const RING_TO_MM = 2;
/** Whitened: lighter than the reference by this much and not more colourful (within noise). */
const WHITENING_LIGHTER_BY = 12;
const WHITENING_CHROMA_SLACK = 6;
/** A rim position counts as whitened when this many of its rim pixels are. */
const WHITENED_PIXELS_PER_POSITION = 2;

export interface ReferenceColour {
  r: number;
  g: number;
  b: number;
  lightness: number;
  chroma: number;
}

export function referenceColour(r: number, g: number, b: number): ReferenceColour {
  return { r, g, b, lightness: luma(r, g, b), chroma: chroma(r, g, b) };
}

/** On a white border, whitening cannot be seen (GRADING.md §1.6) and is reported as not observable. */
export function isWhiteBorder(reference: ReferenceColour): boolean {
  return reference.lightness >= 200 && reference.chroma <= 30;
}

/**
 * Where the card begins along a profile that starts outside the card (`outside` samples of background first):
 * the first place the colour is half-way from the background to the card's reference colour, to a fraction of
 * a sample. Null when the profile never leaves the background.
 */
export function outlineCrossing(profile: Float64Array, count: number, outside: number, reference: ReferenceColour): number | null {
  let br = 0;
  let bg = 0;
  let bb = 0;
  for (let i = 0; i < outside; i++) {
    br += profile[i * 3]! / outside;
    bg += profile[i * 3 + 1]! / outside;
    bb += profile[i * 3 + 2]! / outside;
  }
  const level = Math.max(15, 0.5 * colourDistance(reference.r, reference.g, reference.b, br, bg, bb));
  let previous = colourDistance(profile[0]!, profile[1]!, profile[2]!, br, bg, bb);
  for (let i = 1; i < count; i++) {
    const d = colourDistance(profile[i * 3]!, profile[i * 3 + 1]!, profile[i * 3 + 2]!, br, bg, bb);
    if (d >= level && i >= outside) return i - 1 + (d === previous ? 1 : (level - previous) / (d - previous));
    previous = d;
  }
  return null;
}

/** Counts the whitened pixels among profile samples [from, to) and says whether the position is whitened. */
export function isWhitenedPosition(profile: Float64Array, from: number, to: number, reference: ReferenceColour): boolean {
  let whitened = 0;
  for (let i = Math.max(0, from); i < to; i++) {
    const r = profile[i * 3]!;
    const g = profile[i * 3 + 1]!;
    const b = profile[i * 3 + 2]!;
    if (luma(r, g, b) >= reference.lightness + WHITENING_LIGHTER_BY && chroma(r, g, b) <= reference.chroma + WHITENING_CHROMA_SLACK) whitened++;
  }
  return whitened >= WHITENED_PIXELS_PER_POSITION;
}

/** Runs of true values as [start, end) pairs, after closing gaps of up to `maxGap` and dropping runs shorter than `minLength`. */
export function runsOf(flags: Uint8Array, maxGap: number, minLength: number): Array<[number, number]> {
  const raw: Array<[number, number]> = [];
  let start = -1;
  for (let i = 0; i <= flags.length; i++) {
    const on = i < flags.length && flags[i] === 1;
    if (on && start === -1) start = i;
    if (!on && start !== -1) {
      raw.push([start, i]);
      start = -1;
    }
  }
  const merged: Array<[number, number]> = [];
  for (const run of raw) {
    const last = merged[merged.length - 1];
    if (last !== undefined && run[0] - last[1] <= maxGap) last[1] = run[1];
    else merged.push([run[0], run[1]]);
  }
  return merged.filter(([from, to]) => to - from >= minLength);
}
