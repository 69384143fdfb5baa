import type { Rarity } from '../../contracts/grading.ts';

// Whatever a source calls the rarity ("Rare Holo", "rare_secret", "SR", "Illustration Rare"),
// mapped to SPEC.md §9's list. Most specific names first: "Secret Rare" must not read as "Rare".

const RULES: readonly (readonly [RegExp, Rarity])[] = [
  [/\bcharacter super rare\b|\bcsr\b/, 'Character Super Rare (CSR)'],
  [/\brainbow\b/, 'Rainbow Rare'],
  [/\bsecret\b|\bhyper rare\b|\bgold rare\b/, 'Secret Rare'],
  [/\bsuper rare\b|^sr$/, 'Super-Rare'],
  [/\bfull art\b|\billustration rare\b|\balternate art\b|\balt art\b/, 'Full Art'],
  [/\bultra rare\b|\brare ultra\b|\bdouble rare\b|\bultra\b|^(ex|gx|v|vmax|vstar|lv x|break|prime)$/, 'Ultra Rare'],
  [/\bshiny\b|\bradiant\b/, 'Shiny'],
  [/\blegendary\b|\blegend\b/, 'Legendary'],
  [/\bholographic\b|\breverse holo\b/, 'Holographic'],
  [/\bholo\b|\bholofoil\b|\bfoil\b/, 'Holo'],
  [/\buncommon\b/, 'Uncommon'],
  [/\bcommon\b/, 'Common'],
  [/\brare\b/, 'Rare'],
];

export function normaliseRarity(text: string | null | undefined): Rarity | null {
  if (!text) return null;
  const words = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  if (words === '') return null;
  for (const [pattern, rarity] of RULES) if (pattern.test(words)) return rarity;
  return null;
}
