import type { GradingCompany, Subgrades } from '../../contracts/grading.ts';
import type { Accuracy, AccuracyFigures, AccuracySplit, EngineVersion } from '../../contracts/professional-grades.ts';
import { roundTo } from './statistics.ts';

// How well the engine's estimates agreed with the professional grades reported since (issue 33), pure.
//
// Each report compares the estimate the engine made when the card was graded (the PSA estimate where it could tell,
// else the overall grade) with the grade the company gave. One account cannot swing a figure: within each figure an
// account's reports weigh at most ACCOUNT_CAP reports' worth together (n reports over the cap weigh ACCOUNT_CAP / n
// each), so a flood of reports from one account moves the figure no more than ACCOUNT_CAP honest reports would.

export const ACCOUNT_CAP = 5;

export const ACCOUNT_WEIGHTING = `Within each figure an account counts for at most ${ACCOUNT_CAP} reports: an account with more reports in it has each of them weighted ${ACCOUNT_CAP} ÷ its number of reports there. Shares, means and ρ are over these weights.`;

/** One card's latest report, as the figures read it. */
export interface ScoredReport {
  userId: string;
  company: GradingCompany;
  verified: boolean;
  /** The professional grade. */
  grade: number;
  /** The engine's grade compared with it, and which one it was. */
  compared: number;
  comparedFrom: 'psaEstimate' | 'overallGrade';
  grades: Subgrades;
  engine: EngineVersion;
}

const DECIMALS = 4;
const round = (value: number | null) => (value === null ? null : roundTo(value, DECIMALS));

/** Per account, the weight of each of its reports among these. */
function weightsOf(reports: readonly ScoredReport[]): number[] {
  const counts = new Map<string, number>();
  for (const report of reports) counts.set(report.userId, (counts.get(report.userId) ?? 0) + 1);
  return reports.map((report) => Math.min(1, ACCOUNT_CAP / counts.get(report.userId)!));
}

/** Mid-ranks in weight: a value's rank is the weight below it plus half the weight at it (weights of 1: the usual ranks less ½). */
export function weightedRanks(values: readonly number[], weights: readonly number[]): number[] {
  const totals = new Map<number, number>();
  for (const [i, value] of values.entries()) totals.set(value, (totals.get(value) ?? 0) + weights[i]!);
  const rankOf = new Map<number, number>();
  let below = 0;
  for (const value of [...totals.keys()].sort((a, b) => a - b)) {
    const at = totals.get(value)!;
    rankOf.set(value, below + at / 2);
    below += at;
  }
  return values.map((value) => rankOf.get(value)!);
}

export function weightedPearson(xs: readonly number[], ys: readonly number[], weights: readonly number[]): number | null {
  const total = weights.reduce((sum, w) => sum + w, 0);
  if (xs.length < 2 || total === 0) return null;
  const mx = xs.reduce((sum, x, i) => sum + weights[i]! * x, 0) / total;
  const my = ys.reduce((sum, y, i) => sum + weights[i]! * y, 0) / total;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const [i, w] of weights.entries()) {
    const dx = xs[i]! - mx;
    const dy = ys[i]! - my;
    sxy += w * dx * dy;
    sxx += w * dx * dx;
    syy += w * dy * dy;
  }
  // Binary noise on a constant series is not an order.
  if (sxx < 1e-12 || syy < 1e-12) return null;
  return sxy / Math.sqrt(sxx * syy);
}

/** Spearman's ρ with weights: weighted Pearson over weighted mid-ranks; with every weight 1, the usual ρ. */
export function weightedSpearman(xs: readonly number[], ys: readonly number[], weights: readonly number[]): number | null {
  return weightedPearson(weightedRanks(xs, weights), weightedRanks(ys, weights), weights);
}

export function accuracyFigures(reports: readonly ScoredReport[]): AccuracyFigures {
  const weights = weightsOf(reports);
  const total = weights.reduce((sum, w) => sum + w, 0);
  const share = (test: (report: ScoredReport) => boolean) => (total === 0 ? null : reports.reduce((sum, r, i) => sum + (test(r) ? weights[i]! : 0), 0) / total);
  const meanOf = (value: (report: ScoredReport) => number | null) => {
    let sum = 0;
    let weight = 0;
    for (const [i, report] of reports.entries()) {
      const v = value(report);
      if (v === null) continue;
      sum += weights[i]! * v;
      weight += weights[i]!;
    }
    return weight === 0 ? null : sum / weight;
  };
  const delta = (r: ScoredReport) => r.compared - r.grade;
  return {
    reports: reports.length,
    accounts: new Set(reports.map((r) => r.userId)).size,
    weight: roundTo(total, DECIMALS),
    comparedFrom: { psaEstimate: reports.filter((r) => r.comparedFrom === 'psaEstimate').length, overallGrade: reports.filter((r) => r.comparedFrom === 'overallGrade').length },
    exact: round(share((r) => Math.abs(delta(r)) <= 0.5)),
    withinOne: round(share((r) => Math.abs(delta(r)) <= 1)),
    withinTwo: round(share((r) => Math.abs(delta(r)) <= 2)),
    meanAbsDelta: round(meanOf((r) => Math.abs(delta(r)))),
    meanDelta: round(meanOf(delta)),
    spearman: round(weightedSpearman(reports.map((r) => r.compared), reports.map((r) => r.grade), weights)),
    subgradeBias: {
      centering: round(meanOf((r) => (r.grades.centering === null ? null : r.grades.centering - r.grade))),
      corners: round(meanOf((r) => r.grades.corners - r.grade)),
      edges: round(meanOf((r) => r.grades.edges - r.grade)),
      surface: round(meanOf((r) => r.grades.surface - r.grade)),
    },
  };
}

/** All the reports, the verified ones and the others, each with its own cap. */
export function accuracySplit(reports: readonly ScoredReport[]): AccuracySplit {
  return {
    all: accuracyFigures(reports),
    verified: accuracyFigures(reports.filter((r) => r.verified)),
    unverified: accuracyFigures(reports.filter((r) => !r.verified)),
  };
}

function groupBy<K>(reports: readonly ScoredReport[], key: (report: ScoredReport) => K, keyText: (key: K) => string): { key: K; reports: ScoredReport[] }[] {
  const groups = new Map<string, { key: K; reports: ScoredReport[] }>();
  for (const report of reports) {
    const k = key(report);
    const text = keyText(k);
    const group = groups.get(text) ?? groups.set(text, { key: k, reports: [] }).get(text)!;
    group.reports.push(report);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, group]) => group);
}

/** The public page's figures: overall, per engine version and per grading company, verified and unverified apart. */
export function accuracyOf(reports: readonly ScoredReport[]): Accuracy {
  return {
    accountCap: ACCOUNT_CAP,
    weighting: ACCOUNT_WEIGHTING,
    overall: accuracySplit(reports),
    byEngine: groupBy(reports, (r) => r.engine, (e) => `${e.vision} ${e.calibration}`).map(({ key, reports: group }) => ({ ...key, figures: accuracySplit(group) })),
    byCompany: groupBy(reports, (r) => r.company, (c) => c).map(({ key, reports: group }) => ({ company: key, figures: accuracySplit(group) })),
  };
}
