import type { Subgrades } from '@contracts/grading';
import type { CornerName, DefectKind, EdgeName } from '@contracts/measurement';

// How grades and measurements read on screen (SPEC.md §9): one decimal, a colour that changes at 9, 8 and 7.

/** A grade with one decimal; '-' when there is none (SPEC.md §2: sub-grades show '-' if absent). */
export function formatGrade(grade: number | null | undefined): string {
  return grade === null || grade === undefined ? '-' : grade.toFixed(1);
}

/** The four subgrades in the order they are shown, with their names. */
export const SUBGRADE_NAMES = [
  ['centering', 'Centering'],
  ['corners', 'Corners'],
  ['edges', 'Edges'],
  ['surface', 'Surface'],
] as const satisfies ReadonlyArray<readonly [keyof Subgrades, string]>;

export type ScoreTone = 'top' | 'high' | 'fair' | 'low';

/** The score colour band: 9 and up, 8 and up, 7 and up, below 7. */
export function scoreTone(grade: number): ScoreTone {
  if (grade >= 9) return 'top';
  if (grade >= 8) return 'high';
  if (grade >= 7) return 'fair';
  return 'low';
}

// Text colours at 4.5:1 or more on white and on the muted background; the bar colours are decoration.
const TONE_TEXT: Record<ScoreTone, string> = {
  top: 'text-emerald-700',
  high: 'text-sky-700',
  fair: 'text-amber-700',
  low: 'text-red-700',
};
const TONE_BAR: Record<ScoreTone, string> = {
  top: 'bg-emerald-500',
  high: 'bg-sky-500',
  fair: 'bg-amber-500',
  low: 'bg-red-500',
};

export function scoreTextClass(grade: number | null | undefined): string {
  return grade === null || grade === undefined ? 'text-muted-foreground' : TONE_TEXT[scoreTone(grade)];
}

export function scoreBarClass(grade: number): string {
  return TONE_BAR[scoreTone(grade)];
}

/** 'pokemon' displays as 'Pokemon' (SPEC.md §3). */
export function formatCardType(cardType: string): string {
  return cardType.charAt(0).toUpperCase() + cardType.slice(1);
}

export function formatMm(mm: number): string {
  return `${mm.toFixed(mm < 1 ? 2 : 1)} mm`;
}

const PLACE_NAMES: Record<CornerName | EdgeName | 'surface', string> = {
  topLeft: 'Top-left corner',
  topRight: 'Top-right corner',
  bottomRight: 'Bottom-right corner',
  bottomLeft: 'Bottom-left corner',
  top: 'Top edge',
  right: 'Right edge',
  bottom: 'Bottom edge',
  left: 'Left edge',
  surface: 'Surface',
};

export function placeName(place: CornerName | EdgeName | 'surface'): string {
  return PLACE_NAMES[place];
}

const DEFECT_NAMES: Record<DefectKind, string> = {
  'corner-fray': 'Corner fray',
  'corner-whitening': 'Corner whitening',
  'edge-nick': 'Edge nick',
  'edge-whitening': 'Edge whitening',
  scratch: 'Scratch',
  'print-line': 'Print line',
  spot: 'Spot',
  crease: 'Crease',
  dent: 'Dent',
};

export function defectName(kind: DefectKind): string {
  return DEFECT_NAMES[kind];
}

/** 'Graded on {date}' and the like: a calendar date in the reader's locale. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}
