import { z } from 'zod';

// Money is exact end to end (issue 10): integer cents inside, decimal strings ("1234.50") on the wire and in
// numeric(10,2) columns, never a binary float in between. The server and the web app share these helpers, so the
// summary cards and the detail page compute gain/loss the same way (SPEC.md §9).

/** decimal(10,2): 99,999,999.99 at most. */
export const MAX_CENTS = 9_999_999_999;

const DECIMAL = /^(\d{1,8})(?:\.(\d{1,2}))?$/;

export const MONEY_MESSAGE = 'must be an amount in dollars of 0 to 99,999,999.99 with at most two decimals';

/**
 * Cents from what a client sent: a decimal string ("12.5", "12.50") or a JSON number whose shortest form is one
 * (12.5). Anything else is null: negative, more than two decimals, 9 or more digits before the point, exponents,
 * Infinity (JSON's 1e309), "abc".
 */
export function parseCents(value: unknown): number | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return null;
  }
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return cents <= MAX_CENTS ? cents : null;
}

/** "1234.50" */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Cents from a decimal string the server wrote (numeric(10,2) as text, possibly negative for a loss). */
export function decimalToCents(decimal: string): number {
  const negative = decimal.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? decimal.slice(1) : decimal).split('.');
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
  return negative ? -cents : cents;
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** "$1,234.50", "-$3.00": from cents, so no float ever rounds a displayed amount. */
export function formatUsd(cents: number): string {
  // Up to 5 × 10^13 cents in a large portfolio: well inside the doubles' exact integers, and /100 of an integer
  // is the nearest double to the decimal, which Intl prints exactly at two decimals.
  return usd.format(cents / 100);
}

/** SPEC.md §9: (value - cost) / cost * 100, zero when cost is 0, rounded to one decimal (half away from zero). */
export function gainLoss(valueCents: number, costCents: number): { cents: number; percent: number } {
  const cents = valueCents - costCents;
  if (costCents === 0) return { cents, percent: 0 };
  // Tenths of a percent, in integers: (v - c) * 1000 / c, rounded; BigInt because the product passes 2^53.
  const numerator = BigInt(cents) * 1000n;
  const denominator = BigInt(costCents);
  const negative = numerator < 0n !== denominator < 0n;
  const absN = numerator < 0n ? -numerator : numerator;
  const absD = denominator < 0n ? -denominator : denominator;
  const tenths = (absN * 2n + absD) / (absD * 2n);
  const signed = Number(negative ? -tenths : tenths);
  return { cents, percent: signed / 10 };
}

/** "12.3%", "-4.0%", "0.0%" */
export function formatPercent(percent: number): string {
  return `${percent.toFixed(1)}%`;
}

export const PORTFOLIO_TIME_ZONE = 'America/New_York';

const nyDay = new Intl.DateTimeFormat('en-CA', { timeZone: PORTFOLIO_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
const nyDisplay = new Intl.DateTimeFormat('en-US', { timeZone: PORTFOLIO_TIME_ZONE, year: 'numeric', month: 'short', day: 'numeric' });

/** The day in New York (YYYY-MM-DD) of an instant: prices are dated by the collector's market day (SPEC.md §9). */
export function newYorkDate(iso: string | Date): string {
  return nyDay.format(typeof iso === 'string' ? new Date(iso) : iso);
}

/** "Nov 25, 2026" in New York; a plain YYYY-MM-DD date is shown as that day. */
export function formatNewYorkDate(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    // A calendar day has no time zone: noon UTC keeps it on the same day in New York.
    return nyDisplay.format(new Date(`${value}T12:00:00Z`));
  }
  return nyDisplay.format(new Date(value));
}

/** A money field of a request: cents, or a 400 naming the field. */
export const moneySchema = z.unknown().transform((value, ctx) => {
  const cents = parseCents(value);
  if (cents === null) {
    ctx.addIssue({ code: 'custom', message: `This ${MONEY_MESSAGE}` });
    return z.NEVER;
  }
  return cents;
});
