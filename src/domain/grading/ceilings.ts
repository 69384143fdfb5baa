import type { CenteringCeiling, CenteringCeilings, Grader } from '../../contracts/grading.ts';
import type { Centering } from '../../contracts/measurement.ts';

// The centering limits of PSA, BGS and CGC (GRADING.md §2): the best grade each would allow for the
// measured ratios. Limits are the larger border's share in percent (55 for "55/45"), on the worse of the two axes.

interface CeilingRow {
  grade: number;
  front: number;
  /** null: the grader sets no back limit at this grade. */
  back: number | null;
  name?: string;
}

/** Rows best grade first; a grade the table leaves blank on both sides is not offered (PSA 9.5, CGC 8 and below). */
const TABLES: Record<Grader, readonly CeilingRow[]> = {
  PSA: [
    { grade: 10, front: 55, back: 75 },
    { grade: 9, front: 60, back: 90 },
    { grade: 8, front: 65, back: 90 },
    { grade: 7, front: 70, back: 90 },
    { grade: 6, front: 80, back: 90 },
  ],
  BGS: [
    { grade: 10, front: 50, back: 55, name: 'Pristine' },
    { grade: 9.5, front: 55, back: 60 },
    { grade: 9, front: 60, back: 65 },
    { grade: 8, front: 70, back: 85 },
    { grade: 7, front: 80, back: 90 },
    { grade: 6, front: 90, back: null },
  ],
  CGC: [
    { grade: 10, front: 55, back: 75, name: 'Gem Mint' },
    { grade: 9, front: 60, back: 90 },
  ],
};

/**
 * The share as a collector writes it: whole percent, half up. Graders judge "55/45", not 55.04,
 * so a card measured at 55.04 meets a 55/45 limit.
 */
function collectorShare(centering: Extract<Centering, { measurable: true }>): number {
  return Math.round(Math.max(centering.horizontal.worstShare, centering.vertical.worstShare));
}

function ceilingFor(grader: Grader, front: number, back: number | null): CenteringCeiling {
  const rows = TABLES[grader];
  const row = rows.find((r) => front <= r.front && (back === null || r.back === null || back <= r.back));
  if (!row) return { grader, maxGrade: null, text: `below ${grader} ${rows[rows.length - 1]!.grade}` };
  return { grader, maxGrade: row.grade, text: row.name ? `${grader} ${row.grade} ${row.name}` : `${grader} ${row.grade}` };
}

export function centeringCeilings(front: Centering, back: Centering | undefined): CenteringCeilings {
  if (!front.measurable) {
    const none = (grader: Grader): CenteringCeiling => ({ grader, maxGrade: null, text: 'not measurable' });
    return { basis: 'not measurable', psa: none('PSA'), bgs: none('BGS'), cgc: none('CGC') };
  }
  const frontShare = collectorShare(front);
  const backShare = back?.measurable ? collectorShare(back) : null;
  return {
    basis: backShare === null ? 'front' : 'front and back',
    psa: ceilingFor('PSA', frontShare, backShare),
    bgs: ceilingFor('BGS', frontShare, backShare),
    cgc: ceilingFor('CGC', frontShare, backShare),
  };
}
