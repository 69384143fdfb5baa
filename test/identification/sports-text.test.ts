import { afterAll, describe, expect, it } from 'vitest';
import { identificationSchema } from '../../src/contracts/grading.ts';
import { createOcrIdentifier } from '../../src/infra/identification/ocr-identifier.ts';
import { sportsCardFromLines } from '../../src/infra/identification/sports-text.ts';
import { renderSportsCard } from './sports-card.ts';

// Issue 32: a sports card's print, read and shown as read (player, team, position, year and brand where printed);
// there is no sports catalogue, so nothing is confirmed and the card is not identified by it.

describe('a sports card read from its lines', () => {
  it('finds the team, position, year and brand, and the player among the rest, from what tesseract gives', () => {
    expect(sportsCardFromLines(['Upper Deck', 'KEN GRIFFEY )R.', 'MARINERS + OUTFIELD', '« 1989 The Upper Deck Company'])).toEqual({
      player: 'Ken Griffey R.',
      team: 'Mariners',
      position: 'Outfield',
      year: '1989',
      brand: 'Upper Deck',
    });
    expect(sportsCardFromLines(['TOPPS', 'Derek Jeter', 'NEW YORK YANKEES SS'])).toMatchObject({ player: 'Derek Jeter', team: 'Yankees', position: 'SS', brand: 'Topps' });
    // "Red Sox" before "Reds": the longer team name wins.
    expect(sportsCardFromLines(['BOSTON RED SOX', 'PITCHER', 'Roger Clemens'])?.team).toBe('Red Sox');
  });

  it('takes no Pokémon card, nor stray words, for a sports card', () => {
    // "Thunder" is an attack, "Lightning" a weakness: with Pokémon print beside them they are no team.
    expect(sportsCardFromLines(['Pikachu 60 HP', 'Thunder 50', 'weakness Lightning', '©1999 Nintendo'])).toBeNull();
    expect(sportsCardFromLines(['Baby Pokemon counts ae', 'JOU'])).toBeNull();
    // A team word alone, with nothing else a card prints, is not enough.
    expect(sportsCardFromLines(['The Magic of the season'])).toBeNull();
  });
});

describe('a drawn sports card, read by OCR', () => {
  const ocr = createOcrIdentifier();
  afterAll(() => ocr.close());

  it('shows the print as read, unconfirmed: no catalogue card and no name claimed', async () => {
    const identification = await ocr.identify(await renderSportsCard({ player: 'KEN GRIFFEY JR.', team: 'MARINERS', position: 'OUTFIELD', brand: 'Upper Deck', year: '1989' }));
    expect(identificationSchema.parse(identification)).toEqual(identification);
    expect(identification).toMatchObject({ source: 'ocr', catalogId: null, cardName: null });
    expect(identification.printedSportsCard).toMatchObject({ team: 'Mariners', position: 'Outfield', year: '1989', brand: 'Upper Deck' });
    expect(identification.printedSportsCard?.player).toMatch(/^Ken Griffey/);
  }, 60_000);
});
