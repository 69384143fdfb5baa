import type { PortfolioCardDetails } from '../../src/domain/portfolio/index.ts';

/** A portfolio card's details as a collector records them, with any of them replaced. */
export function details(overrides: Partial<PortfolioCardDetails> = {}): PortfolioCardDetails {
  return {
    cardName: 'Charizard',
    cardSet: 'Base Set',
    cardNumber: '4/102',
    cardYear: '1999',
    isGraded: false,
    gradingCompany: null,
    officialGrade: null,
    estimatedGrade: null,
    imageUrl: null,
    backImageUrl: null,
    condition: 'Near Mint',
    rarity: 'Holo',
    category: 'Trading Card',
    notes: null,
    acquisitionPrice: 12_500,
    acquisitionDate: '2026-11-01',
    ...overrides,
  };
}
