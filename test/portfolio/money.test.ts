import { describe, expect, it } from 'vitest';
import { centsToDecimal, decimalToCents, formatNewYorkDate, formatPercent, formatUsd, gainLoss, newYorkDate, parseCents } from '../../src/contracts/money.ts';

// Money is exact (issue 10) and gain/loss follows SPEC.md §9: zero percent when the cost is 0, one decimal, USD,
// dates in America/New_York.

describe('parsing money', () => {
  it('takes decimal strings and numbers with at most two decimals, up to 99,999,999.99', () => {
    expect(parseCents('0')).toBe(0);
    expect(parseCents('0.01')).toBe(1);
    expect(parseCents('12.5')).toBe(1_250);
    expect(parseCents(' 12.50 ')).toBe(1_250);
    expect(parseCents(12.34)).toBe(1_234);
    expect(parseCents(0.1)).toBe(10);
    expect(parseCents('99999999.99')).toBe(9_999_999_999);
    expect(parseCents(99_999_999.99)).toBe(9_999_999_999);
  });

  it('refuses everything else', () => {
    for (const bad of ['abc', '-1', -1, -0.01, '0.005', 0.005, '1.234', '100000000', '100000000.00', 100_000_000, '12345678901', Infinity, NaN, '1e3', 1e21, '', '.5', '5.', '1,000', null, true, {}, []]) {
      expect({ bad, cents: parseCents(bad) }).toEqual({ bad, cents: null });
    }
    expect(parseCents(JSON.parse('{"p":1e309}').p)).toBeNull();
  });

  it('writes cents back as decimal strings and reads them again exactly', () => {
    for (const cents of [0, 1, 10, 99, 100, 12_345, 9_999_999_999, -250]) expect(decimalToCents(centsToDecimal(cents))).toBe(cents);
    expect(centsToDecimal(9_999_999_999)).toBe('99999999.99');
    expect(centsToDecimal(5)).toBe('0.05');
    expect(centsToDecimal(-250)).toBe('-2.50');
  });
});

describe('gain and loss', () => {
  it('is (value - cost) / cost * 100 to one decimal, and zero percent when the cost is 0', () => {
    expect(gainLoss(15_000, 10_000)).toEqual({ cents: 5_000, percent: 50 });
    expect(gainLoss(10_000, 0)).toEqual({ cents: 10_000, percent: 0 });
    expect(gainLoss(0, 0)).toEqual({ cents: 0, percent: 0 });
    expect(gainLoss(0, 10_000)).toEqual({ cents: -10_000, percent: -100 });
    expect(gainLoss(1, 3)).toEqual({ cents: -2, percent: -66.7 });
    expect(gainLoss(2, 3)).toEqual({ cents: -1, percent: -33.3 });
  });

  it('rounds half away from zero at the boundary of a tenth, exactly', () => {
    // 1 cent on 2,000 is 0.05%: half a tenth.
    expect(gainLoss(2_001, 2_000).percent).toBe(0.1);
    expect(gainLoss(1_999, 2_000).percent).toBe(-0.1);
    // 1 cent on 2,001 is 0.04997…%
    expect(gainLoss(2_002, 2_001).percent).toBe(0);
  });

  it('stays exact at the largest amounts (5,000 cards at 99,999,999.99 each)', () => {
    const most = 5_000 * 9_999_999_999;
    expect(Number.isSafeInteger(most)).toBe(true);
    expect(gainLoss(most, most - 1)).toEqual({ cents: 1, percent: 0 });
    expect(gainLoss(most, 1)).toEqual({ cents: most - 1, percent: 4_999_999_999_499_900 });
    expect(formatUsd(most)).toBe('$499,999,999,950.00');
  });

  it('is shown in USD with one decimal of percent', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(1)).toBe('$0.01');
    expect(formatUsd(123_456)).toBe('$1,234.56');
    expect(formatUsd(9_999_999_999)).toBe('$99,999,999.99');
    expect(formatUsd(-5_000)).toBe('-$50.00');
    expect(formatPercent(50)).toBe('50.0%');
    expect(formatPercent(-66.7)).toBe('-66.7%');
    expect(formatPercent(0)).toBe('0.0%');
  });
});

describe('dates in America/New_York', () => {
  it('dates an instant by the New York day, across midnight UTC and daylight saving', () => {
    expect(newYorkDate('2026-11-26T03:30:00.000Z')).toBe('2026-11-25');
    expect(newYorkDate('2026-11-26T05:00:00.000Z')).toBe('2026-11-26');
    expect(newYorkDate('2026-07-01T03:59:00.000Z')).toBe('2026-06-30');
    expect(newYorkDate('2026-07-01T04:00:00.000Z')).toBe('2026-07-01');
  });

  it('shows days and instants as New York dates', () => {
    expect(formatNewYorkDate('2026-11-26T03:30:00.000Z')).toBe('Nov 25, 2026');
    expect(formatNewYorkDate('2026-11-01')).toBe('Nov 1, 2026');
  });
});
