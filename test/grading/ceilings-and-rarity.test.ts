import { describe, expect, it } from 'vitest';
import { centeringCeilings, normaliseRarity } from '../../src/domain/grading/index.ts';
import { side } from './fixtures.ts';

const centering = (horizontal: number, vertical = 50, which: 'front' | 'back' = 'front') => side({ side: which, centering: { horizontal, vertical } }).centering;
const texts = (front: number, back?: number) => {
  const ceilings = centeringCeilings(centering(front), back === undefined ? undefined : centering(back, 50, 'back'));
  return [ceilings.psa.text, ceilings.bgs.text, ceilings.cgc.text];
};

describe('centering ceilings of PSA, BGS and CGC (GRADING.md §2)', () => {
  it('a perfectly centred card allows every top grade', () => {
    expect(texts(50, 50)).toEqual(['PSA 10', 'BGS 10 Pristine', 'CGC 10 Gem Mint']);
    const ceilings = centeringCeilings(centering(50), centering(50, 50, 'back'));
    expect(ceilings.basis).toBe('front and back');
    expect(ceilings.psa.maxGrade).toBe(10);
  });

  it('reads each limit on the worse axis, as a collector rounds the ratio', () => {
    expect(texts(50.4)).toEqual(['PSA 10', 'BGS 10 Pristine', 'CGC 10 Gem Mint']);
    expect(texts(55.4)).toEqual(['PSA 10', 'BGS 9.5', 'CGC 10 Gem Mint']);
    expect(texts(55.5)).toEqual(['PSA 9', 'BGS 9', 'CGC 9']);
    expect(centeringCeilings(centering(50, 58), undefined).psa.text).toBe('PSA 9'); // top/bottom is the worse axis
    expect(texts(60)).toEqual(['PSA 9', 'BGS 9', 'CGC 9']);
    expect(texts(63)).toEqual(['PSA 8', 'BGS 8', 'below CGC 9']);
    expect(texts(70)).toEqual(['PSA 7', 'BGS 8', 'below CGC 9']);
    expect(texts(75)).toEqual(['PSA 6', 'BGS 7', 'below CGC 9']);
    expect(texts(85)).toEqual(['below PSA 6', 'BGS 6', 'below CGC 9']);
    expect(texts(91)).toEqual(['below PSA 6', 'below BGS 6', 'below CGC 9']);
  });

  it("holds the back to the back's limits", () => {
    expect(texts(50, 55)).toEqual(['PSA 10', 'BGS 10 Pristine', 'CGC 10 Gem Mint']);
    expect(texts(50, 60)).toEqual(['PSA 10', 'BGS 9.5', 'CGC 10 Gem Mint']);
    expect(texts(50, 70)).toEqual(['PSA 10', 'BGS 8', 'CGC 10 Gem Mint']);
    expect(texts(50, 80)).toEqual(['PSA 9', 'BGS 8', 'CGC 9']);
    expect(texts(50, 88)).toEqual(['PSA 9', 'BGS 7', 'CGC 9']);
    expect(texts(50, 95)).toEqual(['below PSA 6', 'BGS 6', 'below CGC 9']); // BGS sets no back limit at 6
  });

  it('without a measurable back the ceilings rest on the front alone, and say so', () => {
    expect(centeringCeilings(centering(50), undefined).basis).toBe('front');
    expect(centeringCeilings(centering(50), side({ side: 'back', centering: null }).centering).basis).toBe('front');
  });
});

describe('rarity normalised to SPEC.md §9', () => {
  const cases: [string | null, string | null][] = [
    ['Common', 'Common'],
    ['uncommon', 'Uncommon'],
    ['Rare', 'Rare'],
    ['Rare Holo', 'Holo'],
    ['holo rare', 'Holo'],
    ['Reverse Holo', 'Holographic'],
    ['Holographic', 'Holographic'],
    ['Rare Ultra', 'Ultra Rare'],
    ['Double Rare', 'Ultra Rare'],
    ['ultra-rare', 'Ultra Rare'],
    ['Rare Secret', 'Secret Rare'],
    ['Hyper Rare', 'Secret Rare'],
    ['Rare Rainbow', 'Rainbow Rare'],
    ['Full Art', 'Full Art'],
    ['Special Illustration Rare', 'Full Art'],
    ['Super Rare', 'Super-Rare'],
    ['SR', 'Super-Rare'],
    ['Character Super Rare', 'Character Super Rare (CSR)'],
    ['CSR', 'Character Super Rare (CSR)'],
    ['Shiny Rare', 'Shiny'],
    ['Rare Holo LEGEND', 'Legendary'],
    ['Legendary', 'Legendary'],
    ['mythic', null],
    ['', null],
    [null, null],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => expect(normaliseRarity(input)).toBe(expected));
  }
});
