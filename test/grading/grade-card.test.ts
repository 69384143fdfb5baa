import { describe, expect, it } from 'vitest';
import { cardGradeSchema, gradedCardSchema } from '../../src/contracts/grading.ts';
import type { Identification } from '../../src/contracts/grading.ts';
import {
  bgsOverall,
  centeringVerdict,
  condition,
  describeGradedCard,
  gradeCard,
  gradeLabel,
  gradeSide,
} from '../../src/domain/grading/index.ts';
import { side } from './fixtures.ts';
import type { SideOptions } from './fixtures.ts';

const grade = (options: SideOptions) => gradeSide(side(options));

describe('subgrades of one side', () => {
  it('a clean, centred card grades 10 everywhere', () => {
    expect(grade({})).toEqual({ grades: { centering: 10, corners: 10, edges: 10, surface: 10 }, overall: 10, creased: false });
  });

  it('centering grades the worse axis, front and back on their own tables', () => {
    expect(grade({ centering: { horizontal: 60, vertical: 52 } }).grades.centering).toBe(9);
    expect(grade({ centering: { horizontal: 51, vertical: 65 } }).grades.centering).toBe(8.5);
    expect(grade({ centering: { horizontal: 57.5, vertical: 50 } }).grades.centering).toBe(9.3); // 9.25, half up
    expect(grade({ side: 'back', centering: { horizontal: 60, vertical: 50 } }).grades.centering).toBe(9.5);
    expect(grade({ side: 'back', centering: { horizontal: 75, vertical: 50 } }).grades.centering).toBe(8.5);
  });

  it('corners: the worst corner, minus 0.25 for each other corner with D over 0.25 mm, at most 0.75', () => {
    expect(grade({ corners: { topLeft: 1.0 } }).grades.corners).toBe(8);
    expect(grade({ corners: { topLeft: 0.5 } }).grades.corners).toBe(8.8); // 8.75
    expect(grade({ corners: { topLeft: 1.0, topRight: 0.25, bottomLeft: 0.25 } }).grades.corners).toBe(8);
    expect(grade({ corners: { topLeft: 1.0, topRight: 0.3 } }).grades.corners).toBe(7.8); // 7.75
    expect(grade({ corners: { topLeft: 1.0, topRight: 0.3, bottomRight: 0.3, bottomLeft: 0.3 } }).grades.corners).toBe(7.3); // 7.25
    expect(grade({ corners: { topLeft: 4, topRight: 4, bottomRight: 4, bottomLeft: 4 } }).grades.corners).toBe(2.3); // 3 − 0.75
  });

  it('edges: the worst side by min(whitening, nick), minus 0.25 for each other damaged side', () => {
    expect(grade({ edgeWhitening: { top: 3 } }).grades.edges).toBe(9);
    expect(grade({ nicks: { top: [0.4] } }).grades.edges).toBe(8);
    expect(grade({ edgeWhitening: { top: 3 }, nicks: { top: [0.1, 0.4] } }).grades.edges).toBe(8);
    // the right side (2 mm → 9.25) is damaged; the left (1 mm → 9.5) is not
    expect(grade({ nicks: { top: [0.4] }, edgeWhitening: { right: 2, left: 1 } }).grades.edges).toBe(7.8);
    expect(grade({ nicks: { top: [0.4], bottom: [0.2] }, edgeWhitening: { right: 2, left: 1.1 } }).grades.edges).toBe(7.3);
    // whitening that cannot be seen (white border) is no evidence of wear
    expect(grade({ edgeWhitening: { top: null, right: null, bottom: null, left: null } }).grades.edges).toBe(10);
  });

  it('surface: the lower of scratches and spots, 9 at most with a print line', () => {
    expect(grade({ scratchLengthMm: 15 }).grades.surface).toBe(8.3); // 8.25
    expect(grade({ spotCount: 2 }).grades.surface).toBe(9.3); // 9.25
    expect(grade({ scratchLengthMm: 15, spotCount: 2 }).grades.surface).toBe(8.3);
    expect(grade({ printLine: true }).grades.surface).toBe(9);
    expect(grade({ printLine: true, scratchLengthMm: 15 }).grades.surface).toBe(8.3);
  });

  it('a crease caps every grade of the side at 4', () => {
    expect(grade({ crease: true })).toEqual({ grades: { centering: 4, corners: 4, edges: 4, surface: 4 }, overall: 4, creased: true });
    expect(grade({ crease: true, corners: { topLeft: 3 } }).grades.corners).toBe(4); // 5, capped
    expect(grade({ crease: true, corners: { topLeft: 4 } }).grades.corners).toBe(3);
  });

  it('overall is 15% centering, 35% corners, 15% edges, 35% surface, from the shown subgrades', () => {
    // 0.15 × 9 + 0.35 × 8 + 0.15 × 10 + 0.35 × 10 = 9.15
    expect(grade({ centering: { horizontal: 60, vertical: 50 }, corners: { topLeft: 1.0 } }).overall).toBe(9.2);
    // 0.15 × 9 + 0.35 × 10 + 0.15 × 9 + 0.35 × 8.3 = 9.105
    expect(grade({ centering: { horizontal: 60, vertical: 50 }, edgeWhitening: { top: 3 }, scratchLengthMm: 15 }).overall).toBe(9.1);
  });
});

describe('the card', () => {
  const front = side({ centering: { horizontal: 60, vertical: 50 }, corners: { topLeft: 1.0 } });
  const back = side({ side: 'back', centering: { horizontal: 75, vertical: 50 }, corners: { topLeft: 0.4 }, scratchLengthMm: 5 });

  it('without a back: the front is the card', () => {
    const result = gradeCard({ front });
    expect(result.grades).toEqual({ centering: 9, corners: 8, edges: 10, surface: 10 });
    expect(result.overallGrade).toBe(9.2);
    expect(result).not.toHaveProperty('frontGrades');
    expect(result).not.toHaveProperty('backGrades');
    expect(cardGradeSchema.parse(result)).toEqual(result);
  });

  it('with a back: overall and subgrades are 60% front and 40% back, each side kept', () => {
    const result = gradeCard({ front, back });
    expect(result.frontGrades).toEqual({ centering: 9, corners: 8, edges: 10, surface: 10 });
    expect(result.backGrades).toEqual({ centering: 8.5, corners: 9, edges: 10, surface: 9 });
    expect(result.frontOverall).toBe(9.2); // 9.15
    expect(result.backOverall).toBe(9.1); // 9.075
    expect(result.overallGrade).toBe(9.2); // 0.6 × 9.2 + 0.4 × 9.1 = 9.16
    expect(result.grades).toEqual({ centering: 8.8, corners: 8.4, edges: 10, surface: 9.6 });
    expect(result.centeringVerdict).toBe('Good Centering');
    expect(result.condition).toBe('Near Mint'); // 0.6 × 9.33 + 0.4 × 9.33
    expect(result.labels).toEqual({ overall: 'Very Good', centering: 'Good', corners: 'Good', edges: 'Excellent', surface: 'Excellent' });
    expect(cardGradeSchema.parse(result)).toEqual(result);
  });

  it('a crease on either side caps every grade of the card at 4', () => {
    const result = gradeCard({ front: side({}), back: side({ side: 'back', crease: true }) });
    expect(result.grades).toEqual({ centering: 4, corners: 4, edges: 4, surface: 4 });
    expect(result.overallGrade).toBe(4);
    expect(result.bgsOverall).toBeLessThanOrEqual(4);
    expect(result.frontGrades?.corners).toBe(10);
  });

  it('a borderless card: centering not graded, the other three keep their proportions', () => {
    const result = gradeCard({ front: side({ centering: null, scratchLengthMm: 20 }) });
    expect(result.grades.centering).toBeNull();
    expect(result.overallGrade).toBe(9.2); // (0.35 × 10 + 0.15 × 10 + 0.35 × 8) / 0.85 = 9.18
    expect(result.centeringVerdict).toBe('Centering Not Measurable');
    expect(result.labels.centering).toBeNull();
    expect(result.centeringCeilings.basis).toBe('not measurable');
    expect(result.centeringCeilings.psa).toEqual({ grader: 'PSA', maxGrade: null, text: 'not measurable' });
    // a back that can be measured gives the card its centering
    const withBack = gradeCard({ front: side({ centering: null }), back: side({ side: 'back', centering: { horizontal: 65, vertical: 50 } }) });
    expect(withBack.grades.centering).toBe(9);
    expect(withBack.frontGrades?.centering).toBeNull();
  });

  it('confidence is the lower side, and photo hints say which side', () => {
    const result = gradeCard({
      front: side({ confidence: 0.9, hints: ['The photo is blurred: hold the camera steady.'] }),
      back: side({ side: 'back', confidence: 0.62, hints: ['Glare on the card: tilt it away from the light.'] }),
    });
    expect(result.confidence).toBe(0.62);
    expect(result.photoHints).toEqual(['Front: The photo is blurred: hold the camera steady.', 'Back: Glare on the card: tilt it away from the light.']);
  });

  it('the analysis opens with the condition and names what was measured', () => {
    const result = gradeCard({ front: side({ corners: { topLeft: 1.0 }, nicks: { top: [0.5] }, scratchLengthMm: 15, printLine: true }) });
    expect(result.conditionAnalysis.startsWith(`${result.condition}, overall ${result.overallGrade.toFixed(1)}`)).toBe(true);
    expect(result.conditionAnalysis).toContain('top-left 1.0 mm');
    expect(result.conditionAnalysis).toContain('1 nick, deepest 0.5 mm on the top edge');
    expect(result.conditionAnalysis).toContain('15.0 mm');
    expect(result.conditionAnalysis).toContain('print line');
    expect(result.conditionAnalysis).toContain('50/50 left/right');
  });

  it('the same measurements give byte-identical JSON', () => {
    const a = JSON.stringify(gradeCard({ front, back }));
    const b = JSON.stringify(gradeCard({ front: structuredClone(front), back: structuredClone(back) }));
    expect(a).toBe(b);
  });

  it('a defect of one kind moves no other subgrade', () => {
    const clean = gradeCard({ front: side({ centering: { horizontal: 58, vertical: 50 } }) }).grades;
    const worn = gradeCard({ front: side({ centering: { horizontal: 58, vertical: 50 }, corners: { topLeft: 2 } }) }).grades;
    expect({ ...worn, corners: clean.corners }).toEqual(clean);
    expect(worn.corners).toBeLessThan(clean.corners);
  });
});

describe('a larger defect never gives a higher grade', () => {
  const sweeps: Record<string, (size: number) => SideOptions> = {
    'centering share': (s) => ({ centering: { horizontal: 50 + s * 10, vertical: 50 } }),
    'corner defect': (s) => ({ corners: { topLeft: s, bottomRight: s / 2 } }),
    'edge whitening': (s) => ({ edgeWhitening: { top: s * 20, left: s * 5 } }),
    'nick depth': (s) => ({ nicks: { right: [s, s / 3] } }),
    'scratch length': (s) => ({ scratchLengthMm: s * 40 }),
    spots: (s) => ({ spotCount: Math.floor(s * 5) }),
  };
  for (const [name, sized] of Object.entries(sweeps)) {
    it(name, () => {
      let previous = { overall: Infinity, bgs: Infinity, front: Infinity, back: Infinity };
      for (let size = 0; size <= 5; size += 0.01) {
        const result = gradeCard({ front: side(sized(size)), back: side({ ...sized(size), side: 'back' }) });
        const now = { overall: result.overallGrade, bgs: result.bgsOverall, front: result.frontOverall!, back: result.backOverall! };
        for (const key of Object.keys(now) as (keyof typeof now)[]) expect(now[key], `${key} at ${size.toFixed(2)}`).toBeLessThanOrEqual(previous[key]);
        previous = now;
      }
    });
  }
});

describe("SPEC.md §9's verdicts and labels", () => {
  it('centering verdict: 8.5 or above is good', () => {
    expect(centeringVerdict(8.5)).toBe('Good Centering');
    expect(centeringVerdict(10)).toBe('Good Centering');
    expect(centeringVerdict(8.4)).toBe('Poor Centering');
    expect(centeringVerdict(null)).toBe('Centering Not Measurable');
  });

  it('grade labels at their boundaries', () => {
    const cases: [number, string][] = [
      [10, 'Excellent'], [9.5, 'Excellent'], [9.4, 'Very Good'], [9, 'Very Good'], [8.9, 'Good'], [8, 'Good'],
      [7.9, 'Average'], [7, 'Average'], [6.9, 'Poor'], [1, 'Poor'],
    ];
    for (const [value, label] of cases) expect(gradeLabel(value), String(value)).toBe(label);
  });

  it('condition from corners, edges and surface, front 0.6 and back 0.4', () => {
    const grades = (corners: number, edges: number, surface: number) => ({ centering: 5, corners, edges, surface });
    expect(condition(grades(9, 9, 9))).toBe('Near Mint');
    expect(condition(grades(8.8, 9, 9))).toBe('Lightly Played'); // 8.93 shows as 8.9
    expect(condition(grades(8.9, 9, 9))).toBe('Near Mint'); // 8.97 shows as 9.0
    expect(condition(grades(8, 8, 8))).toBe('Lightly Played');
    expect(condition(grades(7, 7, 7))).toBe('Moderately Played');
    expect(condition(grades(7, 7, 6.8))).toBe('Heavily Played'); // 6.93 shows as 6.9
    expect(condition(grades(10, 10, 10), grades(6, 7, 8))).toBe('Lightly Played'); // 0.6 × 10 + 0.4 × 7 = 8.8
    expect(condition(grades(10, 10, 10), grades(7.5, 7.5, 7.5))).toBe('Near Mint'); // 9.0
    expect(condition(grades(7.5, 7.5, 7.5), grades(10, 10, 10))).toBe('Lightly Played'); // 8.5
  });
});

describe('BGS-style overall', () => {
  const bgs = (centering: number | null, corners: number, edges: number, surface: number) => bgsOverall({ centering, corners, edges, surface });

  it("reproduces Beckett's three examples", () => {
    expect(bgs(9.5, 9.5, 9, 8)).toBe(8.5);
    expect(bgs(9.5, 9.5, 8.5, 9)).toBe(9);
    expect(bgs(10, 6, 10, 10)).toBe(7);
  });

  it("keeps Beckett's Gem Mint and Pristine thresholds", () => {
    expect(bgs(10, 10, 10, 10)).toBe(10);
    expect(bgs(10, 10, 10, 9.5)).toBe(10);
    expect(bgs(9.5, 9.5, 9.5, 9)).toBe(9.5);
    expect(bgs(9.5, 9.5, 9, 9)).toBe(9);
  });

  it('works on our tenths and without a centering grade', () => {
    expect(bgs(9.7, 9.4, 9.1, 8.2)).toBe(bgs(9.5, 9.5, 9, 8));
    expect(bgs(null, 10, 10, 8)).toBe(9);
  });

  it('is never above the lowest plus one, never below the lowest, and never falls when a subgrade rises', () => {
    const steps = [6, 6.5, 7, 7.5, 8, 8.5, 9, 9.5, 10];
    for (const a of steps)
      for (const b of steps)
        for (const c of steps)
          for (const d of steps) {
            const value = bgs(a, b, c, d);
            const lowest = Math.min(a, b, c, d);
            expect(value).toBeLessThanOrEqual(lowest + 1);
            expect(value).toBeGreaterThanOrEqual(lowest);
            if (d < 10) expect(bgs(a, b, c, d + 0.5)).toBeGreaterThanOrEqual(value);
          }
  });
});

describe('the graded card for the API', () => {
  it('carries the identification, a labelled value, and N/A where nothing is known', () => {
    const front = side({});
    const identification: Identification = {
      source: 'vision-model',
      cardName: 'Pikachu',
      cardSet: 'Base Set',
      cardNumber: '58/102',
      rarity: 'Common',
      cardFacts: 'An electric mouse.',
      setDescription: null,
      estimatedValue: { text: '$12.50', label: 'vision-model estimate' },
      psa10Value: null,
      model: 'test-model',
      catalogId: null,
      catalogConfidence: null,
      cardYear: null,
    };
    const card = describeGradedCard(gradeCard({ front }), identification, { front });
    expect(card.cardName).toBe('Pikachu');
    expect(card.estimatedValue).toBe('$12.50 (vision-model estimate)');
    expect(card.psa10Value).toBe('N/A');
    expect(gradedCardSchema.parse(card)).toEqual(card);

    const unknown = describeGradedCard(gradeCard({ front }), { ...identification, source: 'none', cardName: null, estimatedValue: null }, { front });
    expect(unknown.cardName).toBe('Unknown card');
    expect(unknown.estimatedValue).toBe('N/A');
  });
});
