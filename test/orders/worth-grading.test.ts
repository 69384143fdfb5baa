import { describe, expect, it } from 'vitest';
import type { PsaEstimate } from '../../src/contracts/grading.ts';
import type { GradedPrices } from '../../src/contracts/worth-grading.ts';
import { exactDollars, gradeOdds, SERVICE_LEVELS, valueAtGrade, verdictOf, worthGrading } from '../../src/domain/orders/index.ts';

// "Is it worth grading?" in integers: every figure below was worked out by hand from the rules in the module's header.

const estimate = (overrides: Partial<PsaEstimate> = {}): PsaEstimate => ({ grade: 8, low: 6.5, high: 9.5, confidence: 0.36, canTell: true, reason: null, ...overrides });
const price = (label: string, grade: number | null, cents: number) => ({ label, grade, cents, amount: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}` });
const prices = (rawCents: number | null): GradedPrices => ({
  source: 'PriceCharting',
  currency: 'USD',
  asOf: '2026-11-28',
  product: 'Pikachu #58 · Pokemon Base Set',
  raw: rawCents === null ? null : price('Ungraded', null, rawCents),
  grades: [price('Grade 7', 7, 2000), price('Grade 8', 8, 3000), price('Grade 9', 9, 5000), price('Grade 9.5', 9.5, 8000), price('PSA 10', 10, 20000), price('BGS 10', null, 30000)],
});

describe('grade odds', () => {
  it('spreads the confidence over the grades within one of the estimate and the rest over the range', () => {
    // 7 half grades 6.5..9.5; 5 within one of 8 share 36%, 2 share 64%: weights 36×2 = 72 and 64×5 = 320 out of 1,000.
    const { odds, canTell, note } = gradeOdds(estimate());
    expect(canTell).toBe(true);
    expect(odds).toEqual([
      { grade: 6.5, basisPoints: 3200, percent: '32.00' },
      { grade: 7, basisPoints: 720, percent: '7.20' },
      { grade: 7.5, basisPoints: 720, percent: '7.20' },
      { grade: 8, basisPoints: 720, percent: '7.20' },
      { grade: 8.5, basisPoints: 720, percent: '7.20' },
      { grade: 9, basisPoints: 720, percent: '7.20' },
      { grade: 9.5, basisPoints: 3200, percent: '32.00' },
    ]);
    expect(note).toMatch(/36% confidence of being within one grade/);
  });

  it('spreads the odds evenly over the range when the estimate cannot tell, and says so; the left-over point goes to the lowest grade', () => {
    const { odds, canTell, note } = gradeOdds(estimate({ grade: 7, low: 5, high: 9, canTell: false, reason: 'The photo is too coarse.' }));
    expect(canTell).toBe(false);
    expect(odds.map((o) => o.basisPoints)).toEqual([1112, 1111, 1111, 1111, 1111, 1111, 1111, 1111, 1111]);
    expect(odds.reduce((s, o) => s + o.basisPoints, 0)).toBe(10_000);
    expect(note).toBe('The PSA estimate cannot tell the grade (The photo is too coarse.), so the odds are spread evenly over its range, PSA 5 to 9.');
  });

  it('gives a single-grade range all the odds', () => {
    expect(gradeOdds(estimate({ grade: 10, low: 10, high: 10 })).odds).toEqual([{ grade: 10, basisPoints: 10_000, percent: '100.00' }]);
  });
});

describe('values and verdicts', () => {
  it('values a grade at its own figure, else the nearest priced grade below, else ungraded', () => {
    const p = prices(1000);
    expect(valueAtGrade(9.5, p)).toEqual({ valuedAs: 'Grade 9.5', cents: 8000 });
    expect(valueAtGrade(8.5, p)).toEqual({ valuedAs: 'Grade 8', cents: 3000 });
    expect(valueAtGrade(10, p)).toEqual({ valuedAs: 'PSA 10', cents: 20000 });
    expect(valueAtGrade(6, p)).toEqual({ valuedAs: 'Ungraded', cents: 1000 });
    expect(valueAtGrade(6, prices(null))).toBeNull();
  });

  it('draws the lines at 25% of the cost and at zero', () => {
    expect(verdictOf(375, 1500)).toBe('worth it');
    expect(verdictOf(374, 1500)).toBe('borderline');
    expect(verdictOf(0, 1500)).toBe('borderline');
    expect(verdictOf(-1, 1500)).toBe('not worth it');
  });

  it('writes millionths of a dollar exactly', () => {
    expect(exactDollars(3_200_000)).toBe('3.20');
    expect(exactDollars(1_234_567)).toBe('1.234567');
    expect(exactDollars(720 * 2001)).toBe('1.44072');
  });
});

describe('worth grading at the seven service levels', () => {
  it('computes expected value, cost from the quote, net and gain to the cent', () => {
    const answer = worthGrading({ cardId: 'c1', estimate: estimate(), prices: prices(1000), priceNote: null, levels: SERVICE_LEVELS });
    if (!answer.available) throw new Error('expected an answer');
    // 3200×$10 + 720×($20 + $20 + $30 + $30 + $50) + 3200×$80, over 10,000 = $39.60.
    expect(answer.expected).toMatchObject({ valueCents: 3960, value: '39.60', rawCents: 1000 });
    expect(answer.expected!.rows.map((r) => [r.grade, r.valuedAs, r.contribution])).toEqual([
      [6.5, 'Ungraded', '3.20'],
      [7, 'Grade 7', '1.44'],
      [7.5, 'Grade 7', '1.44'],
      [8, 'Grade 8', '2.16'],
      [8.5, 'Grade 8', '2.16'],
      [9, 'Grade 9', '3.60'],
      [9.5, 'Grade 9.5', '25.60'],
    ]);
    // Cost = base price + $4.99 shipping (no insurance under $500 declared); gain = 3960 − cost − 1000.
    const table = answer.levels.map((l) => (l.offered ? [l.code, l.costCents, l.netCents, l.gainCents, l.verdict] : [l.code]));
    expect(table).toEqual([
      ['budget', 1499, 2461, 1461, 'worth it'],
      ['economy', 2399, 1561, 561, 'borderline'],
      ['standard', 3399, 561, -439, 'not worth it'],
      ['priority', 4999, -1039, -2039, 'not worth it'],
      ['express', 6999, -3039, -4039, 'not worth it'],
      ['super', 8999, -5039, -6039, 'not worth it'],
      ['ultra', 17999, -14039, -15039, 'not worth it'],
    ]);
    const budget = answer.levels[0]!;
    expect(budget.offered && budget.explanation).toBe('$39.60 expected − $14.99 cost − $10.00 raw value = $14.61 gain; worth it from $3.75 (25% of the cost), borderline from $0.00.');
    expect(budget.offered && budget.costLines.map((l) => [l.code, l.amount])).toEqual([['service', '10.00'], ['shipping', '4.99']]);
  });

  it('adds the insurance the quote requires over $500 and leaves out levels that cannot carry the declared value', () => {
    const answer = worthGrading({ cardId: 'c1', estimate: estimate({ grade: 10, low: 10, high: 10 }), prices: prices(60000), priceNote: null, levels: SERVICE_LEVELS });
    if (!answer.available) throw new Error('expected an answer');
    expect(answer.levels[0]).toEqual({ offered: false, code: 'budget', name: 'Budget', reason: 'Budget protects cards declared up to $500. Please choose a higher service level.' });
    const economy = answer.levels[1]!;
    // $200 PSA 10 − ($19 + $4.99 + 2% of $600 = $12) − $600 raw.
    expect(economy.offered && [economy.costCents, economy.gainCents, economy.verdict]).toEqual([3599, 20000 - 3599 - 60000, 'not worth it']);
  });

  it('shows the odds alone without prices, and says why', () => {
    const answer = worthGrading({ cardId: 'c1', estimate: estimate(), prices: null, priceNote: 'No per-grade price source is configured (PRICECHARTING_TOKEN).', levels: SERVICE_LEVELS });
    expect(answer).toMatchObject({ available: true, prices: null, expected: null, levels: [], priceNote: 'No per-grade price source is configured (PRICECHARTING_TOKEN).' });
    expect(answer.available && answer.odds).toHaveLength(7);
  });
});
