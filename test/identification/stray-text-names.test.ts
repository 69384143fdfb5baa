import { afterAll, describe, expect, it } from 'vitest';
import { UNKNOWN_CARD_NAME } from '../../src/contracts/grading.ts';
import { shippedCatalog } from '../../src/infra/catalog/index.ts';
import { confirmedName, createOcrIdentifier, identifyFromReading, nameCandidatesFor } from '../../src/infra/identification/ocr-identifier.ts';
import { gradeCard } from '../../src/workers/grading/index.ts';
import { renderNamedCard, renderNamedCardPhoto } from './named-card.ts';

// Issue 35: stray printed text ("Baby Pokemon counts ae", "JOU") became the card's name, in the collection, the
// portfolio, the CSV and orders. A name is only what identification stands behind: else "Unknown card", with the
// catalogue's names close to what was read offered to choose from.

const ocr = createOcrIdentifier();
afterAll(() => ocr.close());
const catalog = shippedCatalog();

describe('stray text is not taken for a name', () => {
  it('names a card "Unknown card" when what was read matches no catalogue card', async () => {
    for (const [name, number] of [['Baby Pokemon counts ae', '77/999'], ['JOU', '12/345']] as const) {
      const identification = await ocr.identify(await renderNamedCard({ name, number, seed: 21 }));
      expect(identification.catalogId, name).toBeNull();
      expect(identification.cardName, name).toBeNull();
      expect(identification.nameCandidates, name).toBeUndefined();
    }
  }, 60_000);

  it('grades a photo whose print matches nothing as "Unknown card", the whole path from photo to result', async () => {
    const photo = await renderNamedCardPhoto({ name: 'Baby Pokemon counts ae', number: '77/999', seed: 22 });
    const { card } = await gradeCard({ front: photo }, { identifier: ocr, maxPixels: 50_000_000 });
    expect(card.cardName).toBe(UNKNOWN_CARD_NAME);
    expect(card.identification.catalogId).toBeNull();
  }, 60_000);

  it('still names a card the catalogue matches', async () => {
    const { card } = await gradeCard({ front: await renderNamedCardPhoto({ name: 'Pikachu', number: '58/102', seed: 23 }) }, { identifier: ocr, maxPixels: 50_000_000 });
    expect(card.cardName).toBe('Pikachu');
    expect(card.identification.catalogId).toBe('base1-58');
  }, 60_000);

  // The drawn card's default attack and illustrator are Base Set Pikachu's (Thunder Jolt, Mitsuhiro Arita): with them
  // the evidence names base1-58 (issue 32). A face whose print points at no card keeps only its name.
  const noCardsFace = { attacks: [{ name: 'Zap Zap', damage: '10' }], illustrator: 'Nobody Known' };

  it('keeps a name the catalogue knows when no card matches (which Pikachu is not known), in the catalogue\'s spelling', async () => {
    const identification = await ocr.identify(await renderNamedCard({ name: 'Pikachu', number: '58/999', seed: 24, ...noCardsFace }));
    expect(identification).toMatchObject({ source: 'ocr', cardName: 'Pikachu', nameConfirmed: true, catalogId: null });
    expect(identification.nameCandidates).toBeUndefined();
  }, 60_000);

  it("offers the catalogue's names close to a name read that no card bears: \"Is this Pikachu?\"", async () => {
    const identification = await ocr.identify(await renderNamedCard({ name: 'Pikachv', number: '58/999', seed: 24, ...noCardsFace }));
    expect(identification).toMatchObject({ source: 'ocr', cardName: null, catalogId: null });
    expect(identification.nameConfirmed).toBeUndefined();
    expect(identification.nameCandidates).toContain('Pikachu');
  }, 60_000);

  it('offers no name from text that resembles no card, nor from scraps too short to be one', () => {
    expect(nameCandidatesFor(catalog, ['Baby Pokemon counts ae', 'JOU', 'ae'])).toEqual([]);
    expect(nameCandidatesFor(catalog, ['Pikachv'])).toContain('Pikachu');
    expect(nameCandidatesFor(catalog, ['Charizard', 'Charizard']).length).toBeLessThanOrEqual(3);
    const unmatched = identifyFromReading(catalog, { name: 'JOU', number: null, names: ['JOU'], codes: [] });
    expect(unmatched).toMatchObject({ source: 'ocr', cardName: null, catalogId: null });
    expect(confirmedName(catalog, 'Baby Pokemon counts ae')).toBeNull();
    expect(confirmedName(catalog, 'JOU')).toBeNull();
    expect(confirmedName(catalog, 'Mewtwo')).toBe('Mewtwo');
  });
});
