import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Subgrades } from '../../src/contracts/grading.ts';
import type { EngineVersion } from '../../src/contracts/professional-grades.ts';
import type { ProfessionalGradeReported } from '../../src/domain/cards/index.ts';
import { accuracyOf, weightedSpearman } from '../../src/domain/grading/accuracy.ts';
import { spearman } from '../../src/domain/grading/statistics.ts';
import { createEventStore } from '../../src/infra/event-store/index.ts';
import type { EventStore } from '../../src/infra/event-store/types.ts';
import { inlineProjections } from '../../src/projections/index.ts';
import { professionalGradesProjection } from '../../src/projections/professional-grades/professional-grades-projection.ts';
import { scoredReports } from '../../src/projections/professional-grades/queries.ts';
import { rebuildProjection } from '../../src/projections/runner/index.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/database.ts';

// Issue 33: the public accuracy figures equal a hand computation over a seeded history, a malicious account's flood
// of reports included: within each figure an account weighs at most 5 reports' worth.
//
// The history (every card's latest report; engine E1 unless said):
//   A  PSA  estimate 9 (overall grade) vs 9   Δ 0   (first reported 5, then corrected to 9: the latest counts)
//   B  BGS  estimate 8 vs 7                    Δ +1
//   C  PSA  estimate 6 vs 8                    Δ −2
//   D  PSA  estimate 5 vs 5                    Δ 0   verified, engine E2
//   M  PSA  estimate 10 vs 1, twenty cards     Δ +9  each weighted 5/20 = 0.25, 5 in all
// Subgrades: A–D centering 10, corners/edges/surface 9; M centering not measured, the others 10.

const E1: EngineVersion = { vision: 'aaaaaaaaaaaa', calibration: '2026-11-27@aaaaaaaaaaaa' };
const E2: EngineVersion = { vision: 'bbbbbbbbbbbb', calibration: '2026-11-27@aaaaaaaaaaaa' };
const honestGrades: Subgrades = { centering: 10, corners: 9, edges: 9, surface: 9 };
const floodGrades: Subgrades = { centering: null, corners: 10, edges: 10, surface: 10 };

interface Seed {
  user: string;
  card: string;
  company: 'PSA' | 'BGS';
  estimate: number;
  grade: number;
  verified?: boolean;
  fromOverall?: boolean;
  engine?: EngineVersion;
  grades?: Subgrades;
}

const honest: Seed[] = [
  { user: 'a', card: 'cardA', company: 'PSA', estimate: 9, grade: 5, fromOverall: true },
  { user: 'a', card: 'cardA', company: 'PSA', estimate: 9, grade: 9, fromOverall: true },
  { user: 'b', card: 'cardB', company: 'BGS', estimate: 8, grade: 7 },
  { user: 'c', card: 'cardC', company: 'PSA', estimate: 6, grade: 8 },
  { user: 'd', card: 'cardD', company: 'PSA', estimate: 5, grade: 5, verified: true, engine: E2 },
];
const flood = (cards: number): Seed[] => Array.from({ length: cards }, (_, i) => ({ user: 'm', card: `flood${i}`, company: 'PSA', estimate: 10, grade: 1, grades: floodGrades }));

function reportEvent(seed: Seed, n: number): ProfessionalGradeReported {
  return {
    type: 'ProfessionalGradeReported',
    data: {
      cardId: seed.card,
      reportId: `r${n}`,
      reportedBy: `user:${seed.user}`,
      company: seed.company,
      grade: seed.grade,
      cert: `${10_000_000 + n}`,
      slabPhoto: null,
      slabLabel: seed.verified ? { company: seed.company, grade: seed.grade, descriptor: null, cert: `${10_000_000 + n}` } : null,
      verified: seed.verified ?? false,
      source: 'owner',
      estimate: {
        psaEstimate: seed.fromOverall ? null : seed.estimate,
        overallGrade: seed.estimate,
        grades: seed.grades ?? honestGrades,
        compared: seed.estimate,
        comparedFrom: seed.fromOverall ? 'overallGrade' : 'psaEstimate',
        engine: seed.engine ?? E1,
      },
      reportedAt: new Date(Date.UTC(2026, 3, 1) + n * 60_000).toISOString(),
    },
  };
}

const noSubgradeBias = { centering: null, corners: null, edges: null, surface: null };
const nothing = { reports: 0, accounts: 0, weight: 0, comparedFrom: { psaEstimate: 0, overallGrade: 0 }, exact: null, withinOne: null, withinTwo: null, meanAbsDelta: null, meanDelta: null, spearman: null, subgradeBias: noSubgradeBias };

// By hand. All (weights A–D 1 each, M 0.25 × 20 = 5; total 9):
//   exact A, D: 2/9; within one A, B, D: 3/9; within two A–D: 4/9
//   mean |Δ| (0 + 1 + 2 + 0 + 5·9)/9 = 48/9; mean Δ (0 + 1 − 2 + 0 + 45)/9 = 44/9
//   ρ: weighted mid-ranks of the estimates D 0.5, C 1.5, B 2.5, A 3.5, M 4 + 5/2 = 6.5 (mean 4.5: deviations −4 −3 −2 −1 +2);
//      of the grades M 2.5, D 5.5, B 6.5, C 7.5, A 8.5 (deviations −2, D +1, B +2, C +3, A +4);
//      Σw·dx·dy = −4·1 − 3·3 − 2·2 − 1·4 + 5·(2·−2) = −41, Σw·dx² = 16+9+4+1+5·4 = 50 = Σw·dy²: ρ = −41/50
//   bias: centering (1 + 3 + 2 + 5)/4 (M not measured) = 2.75; corners, edges, surface (0 + 2 + 1 + 4 + 5·9)/9 = 52/9
const expectedAll = {
  reports: 24,
  accounts: 5,
  weight: 9,
  comparedFrom: { psaEstimate: 23, overallGrade: 1 },
  exact: 0.2222,
  withinOne: 0.3333,
  withinTwo: 0.4444,
  meanAbsDelta: 5.3333,
  meanDelta: 4.8889,
  spearman: -0.82,
  subgradeBias: { centering: 2.75, corners: 5.7778, edges: 5.7778, surface: 5.7778 },
};
// Verified: D alone. Unverified: A, B, C (1 each) and M (5): total 8; exact 1/8, within one 2/8, within two 3/8, mean |Δ| 48/8.
const expectedVerified = { ...nothing, reports: 1, accounts: 1, weight: 1, comparedFrom: { psaEstimate: 1, overallGrade: 0 }, exact: 1, withinOne: 1, withinTwo: 1, meanAbsDelta: 0, meanDelta: 0, subgradeBias: { centering: 5, corners: 4, edges: 4, surface: 4 } };

function expectHandFigures(accuracy: ReturnType<typeof accuracyOf>) {
  expect(accuracy.accountCap).toBe(5);
  expect(accuracy.overall.all).toEqual(expectedAll);
  expect(accuracy.overall.verified).toEqual(expectedVerified);
  expect(accuracy.overall.unverified).toMatchObject({ reports: 23, accounts: 4, weight: 8, exact: 0.125, withinOne: 0.25, withinTwo: 0.375, meanAbsDelta: 6 });
  // BGS: B alone (Δ +1). PSA: A (Δ 0), C (Δ −2), D (Δ 0) and M: weight 3 + 5; exact and within one A, D: 2/8; within two A, C, D: 3/8.
  expect(accuracy.byCompany.map((c) => c.company)).toEqual(['BGS', 'PSA']);
  expect(accuracy.byCompany[0]!.figures.all).toMatchObject({ reports: 1, accounts: 1, weight: 1, exact: 0, withinOne: 1, meanAbsDelta: 1, spearman: null });
  expect(accuracy.byCompany[1]!.figures.all).toMatchObject({ reports: 23, accounts: 4, weight: 8, exact: 0.25, withinOne: 0.25, withinTwo: 0.375 });
  // Per engine: D was graded by E2, everything else by E1.
  expect(accuracy.byEngine.map((e) => [e.vision, e.figures.all.reports])).toEqual([
    [E1.vision, 23],
    [E2.vision, 1],
  ]);
}

describe('accuracy figures, pure', () => {
  it('equal the hand computation, and a bigger flood from the same account moves nothing', () => {
    const latest = (seeds: Seed[]) => [...new Map(seeds.map((s) => [s.card, s])).values()];
    const scored = (seeds: Seed[]) =>
      latest(seeds).map((s) => {
        const { data } = reportEvent(s, 0);
        return { userId: s.user, company: s.company, verified: data.verified, grade: s.grade, compared: s.estimate, comparedFrom: data.estimate.comparedFrom, grades: data.estimate.grades, engine: data.estimate.engine };
      });
    expectHandFigures(accuracyOf(scored([...honest, ...flood(20)])));
    const bigger = accuracyOf(scored([...honest, ...flood(200)]));
    expect(bigger.overall.all).toEqual({ ...expectedAll, reports: 204, comparedFrom: { psaEstimate: 203, overallGrade: 1 } });
    expect(accuracyOf([])).toMatchObject({ overall: { all: nothing }, byEngine: [], byCompany: [] });
  });

  it('weighted ρ with every weight 1 is the usual Spearman ρ, ties included', () => {
    const xs = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3];
    const ys = [2, 7, 1, 8, 2, 8, 1, 8, 2, 8];
    expect(weightedSpearman(xs, ys, xs.map(() => 1))).toBeCloseTo(spearman(xs, ys)!, 12);
  });
});

describe.each(await databaseKinds())('accuracy from the projection on %s', (kind) => {
  let database: TestDatabase;
  let store: EventStore;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    store = createEventStore(database, { inline: inlineProjections });
    for (const [n, seed] of [...honest, ...flood(20)].entries()) {
      await store.append(`card-${seed.card}`, 'card', [{ ...reportEvent(seed, n), metadata: { actor: { kind: 'user', id: seed.user }, commandId: `c${n}`, timestamp: reportEvent(seed, n).data.reportedAt } }], { expected: 'any' });
    }
  });
  afterAll(async () => database?.destroy());

  it('the figures over the read model equal the hand computation; a rebuild gives the same rows', async () => {
    expectHandFigures(accuracyOf(await scoredReports(database.db)));
    const live = await database.db.selectFrom('professional_grades').selectAll().orderBy('card_id').execute();
    expect(live.find((row) => row.card_id === 'cardA')).toMatchObject({ grade: 9, report_count: 2 });
    await rebuildProjection(database, store, professionalGradesProjection, 'inline');
    expect(await database.db.selectFrom('professional_grades').selectAll().orderBy('card_id').execute()).toEqual(live);
  });

  it('an account sees its own estimates alone', async () => {
    const mine = accuracyOf(await scoredReports(database.db, 'c'));
    expect(mine.overall.all).toMatchObject({ reports: 1, accounts: 1, exact: 0, withinOne: 0, withinTwo: 1, meanAbsDelta: 2, meanDelta: -2 });
  });
});
