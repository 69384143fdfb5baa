// The seven tiers the built-in provider offers (SPEC.md §9 service level guide: Budget $10-$14 20 days, Economy
// $19-$20 10 days, Standard $29-$30 5 days, Priority $45-$50 2-3 days, Express $65-$75 1 day, Super $85-$100 same
// day, Ultra $175-$200 same day). A tier's base price is the low end of its range (the guide's range is the price
// with the usual add-ons); the maximum declared value grows with the tier, Ultra's is '$1M+'.

export interface ServiceLevelTerms {
  code: string;
  name: string;
  basePriceCents: number;
  turnaroundMinDays: number;
  turnaroundMaxDays: number;
  /** Whole US dollars. */
  maxDeclaredValue: number;
}

export const SERVICE_LEVELS: readonly ServiceLevelTerms[] = [
  { code: 'budget', name: 'Budget', basePriceCents: 1000, turnaroundMinDays: 20, turnaroundMaxDays: 20, maxDeclaredValue: 500 },
  { code: 'economy', name: 'Economy', basePriceCents: 1900, turnaroundMinDays: 10, turnaroundMaxDays: 10, maxDeclaredValue: 1_000 },
  { code: 'standard', name: 'Standard', basePriceCents: 2900, turnaroundMinDays: 5, turnaroundMaxDays: 5, maxDeclaredValue: 2_500 },
  { code: 'priority', name: 'Priority', basePriceCents: 4500, turnaroundMinDays: 2, turnaroundMaxDays: 3, maxDeclaredValue: 10_000 },
  { code: 'express', name: 'Express', basePriceCents: 6500, turnaroundMinDays: 1, turnaroundMaxDays: 1, maxDeclaredValue: 25_000 },
  { code: 'super', name: 'Super', basePriceCents: 8500, turnaroundMinDays: 0, turnaroundMaxDays: 0, maxDeclaredValue: 100_000 },
  { code: 'ultra', name: 'Ultra', basePriceCents: 17500, turnaroundMinDays: 0, turnaroundMaxDays: 0, maxDeclaredValue: 1_000_000 },
];
