import { describe, expect, it } from 'vitest';
import { raritySchema } from '../../src/contracts/grading.ts';
import { cardsToCheckByNumber, catalogIdentification, catalogRarity, matchByNumberFit, matchCard, nameKey, numberKey } from '../../src/domain/catalog/index.ts';
import { readCatalog, shippedCatalog } from '../../src/infra/catalog/index.ts';

const catalog = shippedCatalog();

describe('the catalogue the project ships', () => {
  it('holds every card and set of the source, loaded in well under a second', () => {
    const started = performance.now();
    const fresh = readCatalog();
    const ms = performance.now() - started;
    console.log(`catalogue: ${fresh.cards.length} cards in ${fresh.sets.length} sets, read and indexed in ${ms.toFixed(0)} ms`);
    expect(fresh.cards.length).toBe(20_106);
    expect(fresh.sets.length).toBe(172);
    expect(ms).toBeLessThan(3_000);
    expect(fresh.source).toMatch(/Pokémon TCG API/);
  });

  it('looks up by id, by set and number, and by the printed number over the total', () => {
    const pikachu = catalog.byId('base1-58')!;
    expect(pikachu).toMatchObject({ name: 'Pikachu', number: '58', hp: '40', types: ['Lightning'], rarity: 'Common', artist: 'Mitsuhiro Arita', dex: [25] });
    expect(pikachu.set).toMatchObject({ id: 'base1', name: 'Base', series: 'Base', printedTotal: 102, code: 'BS', releaseDate: '1999-01-09' });
    expect(catalog.bySetNumber('base1', '058')?.id).toBe('base1-58');
    expect(catalog.byPrintedNumber('058', '102').map((c) => c.id)).toContain('base1-58');
    expect(catalog.byPrintedNumber('58', '102').every((c) => c.set.printedTotal === 102)).toBe(true);
    expect(catalog.byPrintedNumber('TG12', 'TG30').length).toBeGreaterThan(0);
    expect(catalog.byId('cel25c-15_A1')?.number).toBe('15'); // ids that are not <set>-<number> survive
    expect(catalog.byId('cel25c-15')?.id ?? null).toBe(catalog.cards.find((c) => c.id === 'cel25c-15')?.id ?? null);
    expect(catalog.cards.every((c) => catalog.byId(c.id) === c)).toBe(true);
    expect(catalog.setsByCode('svi').map((s) => s.id)).toEqual(['sv1']);
  });

  it('finds names without accents or case, and through OCR slips', () => {
    expect(nameKey("Farfetch'd")).toBe('farfetchd');
    expect(numberKey('058')).toBe('58');
    expect(numberKey('TG05')).toBe('TG5');
    expect(catalog.byName('FLABEBE')[0]).toMatchObject({ name: 'Flabébé', similarity: 1 });
    expect(catalog.byName('pikachv').slice(0, 2).map((m) => m.name)).toContain('Pikachu');
    expect(catalog.byName('Charizrd')[0]?.name).toBe('Charizard');
    expect(catalog.byName('Zzyzx Qwerty')).toEqual([]);
  });

  it('maps every printed rarity into SPEC.md §9 list, or none (promos, classic reprints)', () => {
    const printed = [...new Set(catalog.cards.map((c) => c.rarity))];
    for (const rarity of printed) {
      const mapped = catalogRarity(rarity);
      if (mapped !== null) expect(raritySchema.options).toContain(mapped);
    }
    expect(catalogRarity('Rare Holo')).toBe('Holo');
    expect(catalogRarity('IllustrationRare')).toBe('Full Art');
    expect(catalogRarity('Hyper Rare')).toBe('Secret Rare');
    expect(catalogRarity('Common')).toBe('Common');
    expect(catalogRarity('Promo')).toBeNull();
  });

  it('looks a card up in well under a millisecond by number, a few by name alone', () => {
    const started = performance.now();
    for (let i = 0; i < 200; i++) matchCard(catalog, { names: ['Pikachu'], number: '58/102' });
    const perCard = (performance.now() - started) / 200;
    const byName = performance.now();
    for (let i = 0; i < 20; i++) matchCard(catalog, { names: ['Charizrd'], number: null });
    const perName = (performance.now() - byName) / 20;
    console.log(`lookup per card: ${perCard.toFixed(3)} ms by number and name, ${perName.toFixed(1)} ms by name alone`);
    expect(perCard).toBeLessThan(2);
    expect(perName).toBeLessThan(50);
  });
});

describe('matching what was read to a card', () => {
  const id = (names: string[], number: string | null, setCodes?: string[]) => matchCard(catalog, { names, number, setCodes })?.card.id ?? null;

  it('takes the number over its total, and the name among the sets of that total', () => {
    expect(id(['Pikachu'], '58/102')).toBe('base1-58');
    expect(id(['Pikachu'], '058/102')).toBe('base1-58');
    expect(matchCard(catalog, { names: ['Pikachu'], number: '58/102' })!.confidence).toBeGreaterThan(0.9);
    expect(id(['Umbreon VMAX'], '215/203')).toBe('swsh7-215'); // a secret rare: the number over the total
    expect(id(['Magnezone ex'], '065/198', ['SVI'])).toBe('sv1-65');
  });

  it('matches a print in another language by its number and name', () => {
    expect(id(['Pikachu', 'Pokémon Básico'], '58/102')).toBe('base1-58');
  });

  it('takes a name cut short, a digit misread, and a promo number without a total', () => {
    expect(id(["Lt. Surge's"], '11/132')).toBe('gym2-11');
    expect(id(['Skiploom'], '002/293', ['PAL'])).toBe('sv2-2');
    expect(id(['Cleffa'], '31')).toBe('basep-31');
  });

  it('leaves a card unmatched rather than guess: names disagreeing, ties, a common name alone', () => {
    expect(id(['Charizard'], '58/102')).toBeNull();
    expect(id(['Pikachu'], null)).toBeNull(); // a hundred Pikachus
    expect(id([], '31')).toBeNull();
    expect(id(['Zorblax'], '12/345')).toBeNull();
  });

  it('narrows by the regulation mark where sets of two eras print the number and total; a mark that disagrees only lowers the confidence', () => {
    const mark = (names: string[], number: string, regulationMark: string | null) => matchCard(catalog, { names, number, regulationMark });
    expect(catalog.byPrintedNumber('065', '198').map((c) => c.id)).toEqual(['swsh6-65', 'sv1-65']);
    expect(mark([], '065/198', null)).toBeNull();
    expect(mark([], '065/198', 'G')).toMatchObject({ card: { id: 'sv1-65' }, confidence: 0.7 });
    expect(mark([], '065/198', 'E')).toMatchObject({ card: { id: 'swsh6-65' }, confidence: 0.7 });
    expect(mark(['Golett'], '065/198', 'E')).toMatchObject({ card: { id: 'swsh6-65' }, confidence: 1 });
    expect(mark(['Golett'], '065/198', 'G')).toMatchObject({ card: { id: 'swsh6-65' }, confidence: 0.9 }); // the name and number agree
    expect(mark(['Pikachu'], '58/102', 'H')).toMatchObject({ card: { id: 'base1-58' }, confidence: 0.9 }); // no mark on a 1999 card: misread
    expect(mark(['Pikachu'], '58/102', 'Q')).toMatchObject({ card: { id: 'base1-58' }, confidence: 1 }); // not a mark
  });

  it('lowers the confidence when only the number speaks', () => {
    const byNumber = matchCard(catalog, { names: [], number: '215/203' });
    expect(byNumber?.card.id).toBe('swsh7-215');
    expect(byNumber!.confidence).toBeLessThan(0.8);
  });

  it('gives the card, its set, its facts and its year', () => {
    const match = matchCard(catalog, { names: ['Cleffa'], number: '31' })!;
    expect(catalogIdentification(match)).toMatchObject({
      cardName: 'Cleffa',
      cardSet: 'Wizards Black Star Promos',
      cardNumber: '31',
      rarity: null,
      catalogId: 'basep-31',
      cardYear: '1999',
      setDescription: 'Wizards Black Star Promos (Base series), released 1999-07-01; 53 cards.',
    });
    expect(catalogIdentification(match).cardFacts).toBe('Baby Pokémon. 30 HP. Type: Colorless. Illustrator: Ken Sugimori. National Pokédex No. 173. Printed rarity: Promo.');
    expect(catalogIdentification(matchCard(catalog, { names: ['Pikachu'], number: '58/102' })!)).toMatchObject({ cardNumber: '58/102', rarity: 'Common', cardSet: 'Base' });
  });
});

describe('checking printed numbers by their shape when none was read', () => {
  const cards = cardsToCheckByNumber(catalog, ['Cleffa', 'Baby Pokemon']);

  it('checks only the cards of that name whose number sits at the bottom right (before XY)', () => {
    expect(cards.map((c) => c.id)).toContain('basep-31');
    expect(cards.every((c) => c.set.releaseDate < '2013-11-01')).toBe(true);
    expect(cards.map((c) => c.id)).not.toContain('svp-37');
  });

  it('takes a clear best fit, and nothing from a weak or close one', () => {
    expect(matchByNumberFit(cards, [{ text: '31', score: 0.45 }, { text: '20/111', score: 0.08 }])).toMatchObject({ card: { id: 'basep-31' }, confidence: 0.55 });
    expect(matchByNumberFit(cards, [{ text: '31', score: 0.3 }, { text: '20/111', score: 0.08 }])).toBeNull();
    expect(matchByNumberFit(cards, [{ text: '31', score: 0.45 }, { text: '20/111', score: 0.42 }])).toBeNull();
    expect(matchByNumberFit(cards, [])).toBeNull();
  });
});
