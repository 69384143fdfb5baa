// Shows the server's exact decimal strings as dollars; the web app does no arithmetic on money.
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

export function formatUsd(amount: string | number): string {
  return usd.format(Number(amount));
}

/** The protection a service level gives, '$1M+' from a million (SPEC.md §9). */
export function protectionOf(maxDeclaredValue: number): string {
  return maxDeclaredValue >= 1_000_000 ? '$1M+' : `$${maxDeclaredValue.toLocaleString('en-US')}`;
}

export function turnaroundOf(min: number, max: number): string {
  if (max === 0) return 'Same day';
  const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;
  return min === max ? days(max) : `${min}-${days(max)}`;
}
