// Money as integer cents; shown and stored as exact decimal strings. Never a float in between.

/** "12", "12.5", "12.50" → 1250. The text was validated before (contracts/orders.ts). */
export function centsOf(dollars: string): number {
  const [whole = '0', fraction = ''] = dollars.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
}

/** 1250 → "12.50". */
export function dollarsOf(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** `cents × percent / 100`, rounded half up to the cent, in integers. */
export function percentOf(cents: number, percent: number): number {
  return Math.floor((cents * percent + 50) / 100);
}
