// The states and provinces a carrier accepts, by country (SPEC.md §5: United States or Canada). Shared by the
// server's address rules and the address form's select.

export const COUNTRIES = ['United States', 'Canada'] as const;
export type Country = (typeof COUNTRIES)[number];

export const REGIONS: Record<Country, ReadonlyArray<{ code: string; name: string }>> = {
  'United States': [
    ['AL', 'Alabama'], ['AK', 'Alaska'], ['AZ', 'Arizona'], ['AR', 'Arkansas'], ['CA', 'California'], ['CO', 'Colorado'],
    ['CT', 'Connecticut'], ['DE', 'Delaware'], ['DC', 'District of Columbia'], ['FL', 'Florida'], ['GA', 'Georgia'],
    ['HI', 'Hawaii'], ['ID', 'Idaho'], ['IL', 'Illinois'], ['IN', 'Indiana'], ['IA', 'Iowa'], ['KS', 'Kansas'],
    ['KY', 'Kentucky'], ['LA', 'Louisiana'], ['ME', 'Maine'], ['MD', 'Maryland'], ['MA', 'Massachusetts'],
    ['MI', 'Michigan'], ['MN', 'Minnesota'], ['MS', 'Mississippi'], ['MO', 'Missouri'], ['MT', 'Montana'],
    ['NE', 'Nebraska'], ['NV', 'Nevada'], ['NH', 'New Hampshire'], ['NJ', 'New Jersey'], ['NM', 'New Mexico'],
    ['NY', 'New York'], ['NC', 'North Carolina'], ['ND', 'North Dakota'], ['OH', 'Ohio'], ['OK', 'Oklahoma'],
    ['OR', 'Oregon'], ['PA', 'Pennsylvania'], ['PR', 'Puerto Rico'], ['RI', 'Rhode Island'], ['SC', 'South Carolina'],
    ['SD', 'South Dakota'], ['TN', 'Tennessee'], ['TX', 'Texas'], ['UT', 'Utah'], ['VT', 'Vermont'], ['VA', 'Virginia'],
    ['WA', 'Washington'], ['WV', 'West Virginia'], ['WI', 'Wisconsin'], ['WY', 'Wyoming'],
  ].map(([code, name]) => ({ code: code!, name: name! })),
  Canada: [
    ['AB', 'Alberta'], ['BC', 'British Columbia'], ['MB', 'Manitoba'], ['NB', 'New Brunswick'],
    ['NL', 'Newfoundland and Labrador'], ['NS', 'Nova Scotia'], ['NT', 'Northwest Territories'], ['NU', 'Nunavut'],
    ['ON', 'Ontario'], ['PE', 'Prince Edward Island'], ['QC', 'Quebec'], ['SK', 'Saskatchewan'], ['YT', 'Yukon'],
  ].map(([code, name]) => ({ code: code!, name: name! })),
};

/** US ZIP `12345` or `12345-6789`; Canadian postal code `A1A 1A1` (no D, F, I, O, Q, U; no W or Z first). */
export const POSTAL_CODE: Record<Country, { pattern: RegExp; message: string }> = {
  'United States': { pattern: /^\d{5}(-\d{4})?$/, message: 'ZIP code must be 12345 or 12345-6789' },
  Canada: { pattern: /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] \d[ABCEGHJ-NPRSTV-Z]\d$/, message: 'Postal code must look like A1A 1A1' },
};

/** A Canadian code typed in lower case or without its space is the same code. */
export function normalisePostalCode(country: Country, value: string): string {
  const trimmed = value.trim().toUpperCase();
  if (country === 'Canada' && /^[A-Z]\d[A-Z]\d[A-Z]\d$/.test(trimmed)) return `${trimmed.slice(0, 3)} ${trimmed.slice(3)}`;
  return trimmed;
}
