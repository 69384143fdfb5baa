import { afterAll, describe, expect, it } from 'vitest';
import { identificationSchema } from '../../src/contracts/grading.ts';
import { shippedCatalog } from '../../src/infra/catalog/index.ts';
import { createOcrIdentifier } from '../../src/infra/identification/ocr-identifier.ts';
import { createPokemonTcgApiPriceSource, withMarketPrice } from '../../src/infra/prices/index.ts';
import { gradeCard } from '../../src/workers/grading/index.ts';
import { startPokemonTcgApiFake } from '../support/pokemon-tcg-api-server.ts';
import { CATALOG_TEST_CARDS } from './catalog-cards.ts';
import { renderNamedCard, renderNamedCardPhoto, type NamedCard } from './named-card.ts';

const ocr = createOcrIdentifier();
afterAll(() => ocr.close());

describe('identification offline: OCR read, catalogue matched', () => {
  it('names the right catalogue card for drawn cards of older and newer layouts, and no wrong one', async () => {
    const pictures = await Promise.all(CATALOG_TEST_CARDS.map(renderNamedCard));
    const right: string[] = [];
    const wrong: string[] = [];
    const unmatched: string[] = [];
    for (const [i, card] of CATALOG_TEST_CARDS.entries()) {
      const identification = await ocr.identify(pictures[i]!);
      expect(identificationSchema.parse(identification)).toEqual(identification);
      if (identification.catalogId === card.id) right.push(card.id);
      else if (identification.catalogId === null) unmatched.push(`${card.id} (read ${identification.cardName} ${identification.cardNumber})`);
      else wrong.push(`${card.id} as ${identification.catalogId}`);
    }
    console.log(`identification on ${CATALOG_TEST_CARDS.length} drawn cards: ${right.length} right, ${wrong.length} wrong, unmatched:`, unmatched);
    expect(CATALOG_TEST_CARDS.length).toBeGreaterThanOrEqual(40);
    expect(right.length).toBeGreaterThanOrEqual(38);
    expect(wrong).toEqual([]);
  }, 90_000); // OCR of 44 drawn cards: some 16 s on an idle machine, twice that while other suites share the two cores

  it('fills the card from the catalogue: set, number, rarity, facts, year, and the match confidence', async () => {
    const identification = await ocr.identify(await renderNamedCard({ name: 'Pikachu', number: '58/102', seed: 11 }));
    expect(identification).toMatchObject({
      source: 'ocr',
      cardName: 'Pikachu',
      cardSet: 'Base',
      cardNumber: '58/102',
      rarity: 'Common',
      catalogId: 'base1-58',
      cardYear: '1999',
      estimatedValue: null,
    });
    expect(identification.catalogConfidence).toBeGreaterThan(0.9);
    expect(identification.cardFacts).toContain('Illustrator: Mitsuhiro Arita');
  });

  it('gives no name to a card the catalogue does not have (issue 35: what was read is not a name), and keeps the number read', async () => {
    const identification = await ocr.identify(await renderNamedCard({ name: 'Zorblax', number: '12/345', seed: 12 }));
    expect(identification).toMatchObject({ source: 'ocr', cardName: null, cardNumber: '12/345', catalogId: null, catalogConfidence: null, cardSet: null });
    expect(identification.nameCandidates).toBeUndefined();
  });
});

describe('the number over its total, the name and the regulation mark, on drawn cards', () => {
  const catalog = shippedCatalog();
  const read = async (card: NamedCard) => ocr.identify(await renderNamedCard(card));

  it('takes the number over its set’s total, the name deciding among the sets that print that total', async () => {
    expect(catalog.byPrintedNumber('58', '102').map((c) => `${c.id} ${c.name}`)).toEqual(['base1-58 Pikachu', 'hgss4-58 Bronzor', 'svp-58 Iron Bundle']);
    expect(catalog.byPrintedNumber('65', '198').map((c) => `${c.id} ${c.name}`)).toEqual(['swsh6-65 Golett', 'sv1-65 Magnezone ex']);
    const [pikachu, golett, umbreon] = await Promise.all([
      read({ name: 'Pikachu', number: '58/102', font: 'Liberation Sans', seed: 41 }),
      read({ name: 'Golett', number: '065/198', layout: 'modern', regulationMark: 'E', seed: 42 }),
      read({ name: 'Umbreon VMAX', number: '215/203', layout: 'modern', regulationMark: 'E', seed: 43 }), // a secret rare, its number past the total
    ]);
    expect([pikachu, golett, umbreon].map((i) => [i.catalogId, i.catalogConfidence])).toEqual([
      ['base1-58', 1],
      ['swsh6-65', 1],
      ['swsh7-215', 1],
    ]);
  });

  it('lowers the confidence when the name and the number disagree, and leaves the card unmatched when nothing reconciles them', async () => {
    const [digitOff, nameOff, neither] = await Promise.all([
      read({ name: 'Pikachu', number: '50/64', seed: 44 }), // 50/64 is no Pikachu; Jungle's Pikachu is 60/64: one digit off
      read({ name: 'Pichu', number: '74/112', seed: 45 }), // 74/112 is FireRed & LeafGreen's Pikachu alone: the name misread?
      read({ name: 'Charizard', number: '58/102', seed: 46 }),
    ]);
    expect(digitOff).toMatchObject({ catalogId: 'base2-60', catalogConfidence: 0.6, cardName: 'Pikachu', cardNumber: '60/64' });
    expect(nameOff).toMatchObject({ catalogId: 'ex6-74', catalogConfidence: 0.5, cardName: 'Pikachu' });
    // Unmatched, the name read is kept only as a name the catalogue knows (issue 35), in its spelling.
    expect(neither).toMatchObject({ catalogId: null, catalogConfidence: null, cardName: 'Charizard', nameConfirmed: true, cardNumber: '58/102' });
  });

  it('reads the regulation mark and narrows to its era when no name can be read', async () => {
    const unnamed = { name: '', number: '065/198', seed: 47 };
    const [scarlet, sword, vintage] = await Promise.all([
      read({ ...unnamed, layout: 'modern', regulationMark: 'G', borderColor: '#c9ccd1' }),
      read({ ...unnamed, layout: 'modern', regulationMark: 'E' }),
      read(unnamed), // the old layout prints no mark: two sets print 065/198, and the number alone names neither
    ]);
    expect(scarlet).toMatchObject({ catalogId: 'sv1-65', catalogConfidence: 0.7, cardName: 'Magnezone ex' });
    expect(sword).toMatchObject({ catalogId: 'swsh6-65', catalogConfidence: 0.7, cardName: 'Golett' });
    expect(vintage).toMatchObject({ catalogId: null, cardNumber: '065/198' });
  });
});

describe('everything printed on drawn cards (issue 32)', () => {
  const read = async (card: NamedCard) => ocr.identify(await renderNamedCard(card));

  it('reads the attack block when the name and number are not enough, and a full-art face in white over its picture', async () => {
    const [wooper, lurantis] = await Promise.all([
      // The name read, no number printed: Neo Discovery's Wooper by its attacks and illustrator.
      read({ name: 'Wooper', number: '', hp: 50, illustrator: 'Yukiko Baba', attacks: [{ name: 'Slime', damage: '' }, { name: 'Tail Slap', damage: '20' }], seed: 51 }),
      // Full art: every word white over busy art, which one threshold over the crop does not separate.
      read({ name: 'Lurantis-GX', number: '138/149', fullArt: true, hp: 210, seed: 5, attacks: [{ name: 'Flower Supply', damage: '40' }, { name: 'Solar Blade', damage: '120' }, { name: 'Chloroscythe-GX', damage: '50×' }] }),
    ]);
    expect(wooper).toMatchObject({ catalogId: 'neo2-71', cardName: 'Wooper', cardSet: 'Neo Discovery', cardNumber: '71/75' });
    expect(wooper.evidence).toEqual(expect.arrayContaining(['name Wooper', 'attack Tail Slap', 'illustrator Yukiko Baba']));
    expect(lurantis).toMatchObject({ catalogId: 'sm1-138', cardName: 'Lurantis-GX', cardNumber: '138/149' });
    expect(lurantis.evidence).toEqual(expect.arrayContaining(['number 138/149', 'attack Solar Blade']));
  }, 60_000);
});

describe('grading without the network', () => {
  it('gives the same grades and identification; only the value is N/A, with the reason', async () => {
    const photo = await renderNamedCardPhoto({ name: 'Pikachu', number: '58/102', seed: 21 }, 4);
    const gone = await startPokemonTcgApiFake();
    await gone.close(); // nothing listens there any more
    const unreachable = withMarketPrice(ocr, createPokemonTcgApiPriceSource({ baseUrl: gone.url }), shippedCatalog());
    const [offline, plain] = [await gradeCard({ front: photo }, { identifier: unreachable, maxPixels: 50_000_000 }), await gradeCard({ front: photo }, { identifier: ocr, maxPixels: 50_000_000 })];
    expect(offline.card.identification.catalogId).toBe('base1-58');
    expect(offline.card.estimatedValue).toMatch(/^N\/A \(no market price: the Pokémon TCG API could not be reached/);
    const withoutValue = (card: typeof plain.card) => ({ ...card, estimatedValue: null, identification: { ...card.identification, estimatedValue: null } });
    expect(withoutValue(offline.card)).toEqual(withoutValue(plain.card));
  });
});
