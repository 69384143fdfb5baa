import type { Rarity } from '../../contracts/grading.ts';
import { normaliseRarity } from '../grading/rarity.ts';
import { editDistance, nameKey, nameSimilarity, numberKey, type Catalog, type CatalogCard, type CatalogSet } from './catalog.ts';

// From what OCR (or a vision model) read off a card to the catalogue's card, with how sure we are.
// A printed `number/total` narrows the catalogue to a few sets; a set code or regulation mark read beside it narrows
// them further; the name decides among the rest. Both agreeing is a confident match; the number alone (no name
// read) is a weaker one; the two disagreeing looks for the name among the sets of that total (the number misread)
// and otherwise gives up: an unmatched card keeps what was read and says so, and is never matched to a wrong card
// on a guess.

export interface CardReading {
  /** Names read, best guess first (other word runs of the name band after it). */
  names: readonly string[];
  /** The collector number as read: "58/102", "TG12/TG30", "SWSH050", "31"; null when none was read. */
  number: string | null;
  /** Set codes read near the number ("SVI", "PAF"); only codes the catalogue knows count. */
  setCodes?: readonly string[];
  /** The regulation mark read beside the number ("G"): the letter in a box on cards since Sword & Shield. */
  regulationMark?: string | null;
}

export interface CatalogMatch {
  card: CatalogCard;
  /** 0..1: how far the reading supports this card. */
  confidence: number;
}

/** Names at least this similar (after accents and case) are the same name read with a slip or two. */
const SAME_NAME = 0.75;
/** Below this a match is not given. */
export const MIN_MATCH_CONFIDENCE = 0.5;

const round2 = (value: number) => Math.round(value * 100) / 100;

function parseNumber(read: string): { number: string; total: string | null } | null {
  const text = read.replace(/\s+/g, '').toUpperCase();
  const fraction = /^([A-Z]{0,4}\d{1,4}[A-Z]?)\/([A-Z]{0,4}\d{1,4})$/.exec(text);
  if (fraction) return { number: fraction[1]!, total: fraction[2]! };
  if (/^[A-Z]{0,5}\d{1,4}[A-Z]?$/.test(text)) return { number: text, total: null };
  return null;
}

/** A long name cut short by the band ("Lt. Surge's" of "Lt. Surge's Raichu", "Magnezone" of "Magnezone VSTAR"). */
const PREFIX_SIMILARITY = 0.8;
const MIN_PREFIX_LENGTH = 5;

/** How well a read name fits a catalogue name: edit similarity, or a cut-short prefix of it. */
export function readNameSimilarity(read: string, name: string): number {
  const similarity = nameSimilarity(read, name);
  const readKey = nameKey(read);
  if (similarity < PREFIX_SIMILARITY && readKey.length >= MIN_PREFIX_LENGTH && nameKey(name).startsWith(readKey)) return PREFIX_SIMILARITY;
  return similarity;
}

function bestName(card: CatalogCard, names: readonly string[]): number {
  let best = 0;
  for (const name of names) best = Math.max(best, readNameSimilarity(name, card.name));
  return best;
}

/** Cards bearing one of the names read (similar enough to be the same name misread). */
function cardsNamed(catalog: Catalog, names: readonly string[], minSimilarity: number): CatalogCard[] {
  const found = new Map<string, CatalogCard>();
  for (const name of names) for (const match of catalog.byName(name, { minSimilarity, limit: 3 })) for (const card of match.cards) found.set(card.id, card);
  return [...found.values()];
}

/** One digit misread at most: "58" for "68", "193" for "293". */
const nearlySame = (a: string, b: string) => editDistance(numberKey(a), numberKey(b), 1) <= 1;

/** The one candidate that stands out by name, or null when two are as good (a tie is not a match). */
function pickByName(candidates: readonly CatalogCard[], names: readonly string[]): { card: CatalogCard; similarity: number } | null {
  const scored = candidates.map((card) => ({ card, similarity: bestName(card, names) })).sort((a, b) => b.similarity - a.similarity);
  const [first, second] = scored;
  if (!first) return null;
  if (second && second.similarity === first.similarity) return null; // two names as close, or one card in two sets
  return first;
}

/**
 * The sets each regulation mark is printed in, by release date (both ends included; a set of the change-over prints
 * both marks), and the series whose promo sets, released over years, print it. The catalogue does not give each
 * card's mark, so a mark narrows to an era; generous ends, as a card narrowed away is worse than one more candidate.
 */
const REGULATION_MARKS: Record<string, { from: string; until: string; series: string }> = {
  D: { from: '2020-02-07', until: '2021-03-19', series: 'Sword & Shield' },
  E: { from: '2021-03-19', until: '2022-02-25', series: 'Sword & Shield' },
  F: { from: '2022-02-25', until: '2023-01-20', series: 'Sword & Shield' },
  G: { from: '2023-03-31', until: '2024-03-22', series: 'Scarlet & Violet' },
  H: { from: '2024-03-22', until: '2025-03-28', series: 'Scarlet & Violet' },
  I: { from: '2025-03-28', until: '9999-12-31', series: 'Scarlet & Violet' },
  J: { from: '2025-09-26', until: '9999-12-31', series: 'Mega Evolution' },
};

/** Whether a set prints that regulation mark (a mark the table does not know: any set). */
export function setPrintsMark(set: CatalogSet, mark: string): boolean {
  const era = REGULATION_MARKS[mark.toUpperCase()];
  if (!era) return true;
  if (/promo/i.test(set.name) && set.series === era.series) return true;
  return set.releaseDate >= era.from && set.releaseDate <= era.until;
}

/**
 * The cards of the sets a set code read names, and of the era the regulation mark read names; each only when it
 * leaves a card (a code or mark misread, or printed where the catalogue does not expect it, narrows nothing).
 */
function inSets(cards: readonly CatalogCard[], reading: Pick<CardReading, 'setCodes' | 'regulationMark'>, catalog: Catalog): CatalogCard[] {
  let narrowed = [...cards];
  const setIds = new Set((reading.setCodes ?? []).flatMap((code) => catalog.setsByCode(code)).map((set) => set.id));
  if (setIds.size > 0) {
    const coded = narrowed.filter((card) => setIds.has(card.set.id));
    if (coded.length > 0) narrowed = coded;
  }
  const mark = reading.regulationMark;
  if (mark) {
    const marked = narrowed.filter((card) => setPrintsMark(card.set, mark));
    if (marked.length > 0) narrowed = marked;
  }
  return narrowed;
}

/** How much a regulation mark read that the matched card's set does not print takes off the confidence. */
const MARK_DISAGREES = 0.1;

/**
 * The card read. A regulation mark read is weighed against the match made without it: a match only the mark makes
 * (two sets printing that number and total, the mark naming the era of one), or a better one, stands; otherwise the
 * match without it, a little less sure when its set does not print that mark (misread, or the two disagree).
 */
export function matchCard(catalog: Catalog, reading: CardReading): CatalogMatch | null {
  const plain = matchReading(catalog, { ...reading, regulationMark: null });
  if (!reading.regulationMark) return plain;
  const marked = matchReading(catalog, reading);
  if (marked && (!plain || (marked.card.id !== plain.card.id && marked.confidence >= plain.confidence))) return marked;
  if (!plain || setPrintsMark(plain.card.set, reading.regulationMark)) return plain;
  const confidence = round2(plain.confidence - MARK_DISAGREES);
  return confidence >= MIN_MATCH_CONFIDENCE ? { card: plain.card, confidence } : null;
}

function matchReading(catalog: Catalog, reading: CardReading): CatalogMatch | null {
  const names = reading.names.filter((name) => name.trim() !== '');
  const parsed = reading.number ? parseNumber(reading.number) : null;
  const result = (card: CatalogCard, confidence: number): CatalogMatch | null =>
    confidence >= MIN_MATCH_CONFIDENCE ? { card, confidence: round2(Math.min(1, confidence)) } : null;

  if (parsed) {
    const byNumber = inSets(parsed.total ? catalog.byPrintedNumber(parsed.number, parsed.total) : catalog.byNumber(parsed.number), reading, catalog);
    if (names.length === 0) {
      // The number alone: only when it names one card, and only with its total printed.
      return byNumber.length === 1 && parsed.total ? result(byNumber[0]!, 0.7) : null;
    }
    const picked = pickByName(byNumber, names);
    if (picked && picked.similarity >= SAME_NAME) return result(picked.card, (parsed.total ? 0.75 : 0.6) + (parsed.total ? 0.25 : 0.35) * picked.similarity);
    // Name and number disagree, or nothing has that number. One part of the number misread? The named cards
    // whose number and total are each within a digit of what was read, and one of them exactly.
    if (parsed.total) {
      const total = parsed.total;
      const named = cardsNamed(catalog, names, 0.85).filter((card) => {
        const sameNumber = numberKey(card.number) === numberKey(parsed.number);
        const sameTotal = String(card.set.printedTotal) === total.replace(/\D/g, '').replace(/^0+/, '');
        return (sameNumber && nearlySame(String(card.set.printedTotal), total)) || (sameTotal && nearlySame(card.number, parsed.number));
      });
      const narrowed = inSets(named, reading, catalog);
      if (narrowed.length === 1) return result(narrowed[0]!, 0.6);
    }
    // The name misread? Only when the number names a single card and the name is not far off.
    if (byNumber.length === 1 && parsed.total && picked && picked.similarity >= 0.5) return result(byNumber[0]!, 0.5);
    return null;
  }

  // No number: a name that only one card in the catalogue bears (narrowed by a set code when one was read).
  if (names.length === 0) return null;
  const [best] = catalog.byName(names[0]!, { minSimilarity: 0.85, limit: 1 });
  if (!best) return null;
  const cards = inSets(best.cards, reading, catalog);
  return cards.length === 1 ? result(cards[0]!, 0.5 + 0.2 * best.similarity) : null;
}

/** "IllustrationRare" and "Rare Holo" as SPEC.md §9's list has them; promos and classic reprints have no place in it. */
export function catalogRarity(printed: string | null): Rarity | null {
  if (!printed) return null;
  return normaliseRarity(printed.replace(/([a-z])([A-Z])/g, '$1 $2'));
}

/** The printed collector number: `58/102` for a numbered card in a numbered set, the bare number otherwise. */
export function printedNumber(card: CatalogCard): string {
  const promo = /promo/i.test(card.set.name);
  return /^\d+$/.test(card.number) && !promo ? `${card.number}/${card.set.printedTotal}` : card.number;
}

/** The card's facts (no game text): stage, HP, type, illustrator, Pokédex number, the rarity as printed. */
export function cardFacts(card: CatalogCard): string {
  const kind = [...card.subtypes, card.supertype].join(' ');
  const facts = [kind];
  if (card.hp) facts.push(`${card.hp} HP`);
  if (card.types.length > 0) facts.push(`Type: ${card.types.join(', ')}`);
  if (card.artist) facts.push(`Illustrator: ${card.artist}`);
  if (card.dex.length > 0) facts.push(`National Pokédex No. ${card.dex.join(', ')}`);
  if (card.rarity) facts.push(`Printed rarity: ${card.rarity}`);
  return `${facts.join('. ')}.`;
}

export function releaseYear(card: CatalogCard): string {
  return card.set.releaseDate.slice(0, 4);
}

/** The set: name, series, release date and size. */
export function setDescription(card: CatalogCard): string {
  const { set } = card;
  const size = set.total === set.printedTotal ? `${set.total} cards` : `${set.total} cards, ${set.printedTotal} in its numbering`;
  return `${set.name} (${set.series} series), released ${set.releaseDate}; ${size}.`;
}

/** What the catalogue says of a matched card, in the Identification's fields. */
export function catalogIdentification(match: CatalogMatch) {
  const { card } = match;
  return {
    cardName: card.name,
    cardSet: card.set.name,
    cardNumber: printedNumber(card),
    rarity: catalogRarity(card.rarity),
    cardFacts: cardFacts(card),
    setDescription: setDescription(card),
    catalogId: card.id,
    catalogConfidence: match.confidence,
    cardYear: releaseYear(card),
  };
}

/** "Base Set" and "Base", "Jungle Set" and "Jungle": a set's name as collectors write it. */
const setNameKey = (name: string) => nameKey(name).replace(/set$/, '');

/**
 * The catalogue card a collector recorded by hand (a portfolio card: name, set, number as typed), or null: the set
 * by its name and the number in it, the name agreeing; else the name and number as if read off the card.
 */
export function findRecordedCard(catalog: Catalog, recorded: { cardName: string; cardSet: string | null; cardNumber: string | null }): CatalogCard | null {
  const number = recorded.cardNumber?.trim().replace(/^#/, '') ?? '';
  if (number === '') return null;
  if (recorded.cardSet) {
    const wanted = setNameKey(recorded.cardSet);
    for (const set of catalog.sets) {
      if (setNameKey(set.name) !== wanted) continue;
      const card = catalog.bySetNumber(set.id, number.split('/')[0]!);
      if (card && readNameSimilarity(recorded.cardName, card.name) >= SAME_NAME) return card;
    }
  }
  return matchCard(catalog, { names: [recorded.cardName], number })?.card ?? null;
}

/** Sets released before XY (November 2013) print the collector number at the bottom right. */
const NUMBER_AT_BOTTOM_RIGHT_UNTIL = '2013-11-01';
/** More cards than this by one name is too many to check by their numbers' shapes. */
const MAX_NUMBERS_TO_CHECK = 80;

/**
 * The cards to check by the shape of their printed number, when a name was read but no number: the cards bearing
 * that name whose number sits at the bottom right, where the lettering is looked for.
 */
export function cardsToCheckByNumber(catalog: Catalog, names: readonly string[]): CatalogCard[] {
  const cards = cardsNamed(catalog, names, 0.85).filter((card) => card.set.releaseDate < NUMBER_AT_BOTTOM_RIGHT_UNTIL);
  return cards.length <= MAX_NUMBERS_TO_CHECK ? cards : [];
}

/** A drawn number must fit at least this well (normalised cross-correlation), and this much better than the next. */
const MIN_NUMBER_FIT = 0.35;
const MIN_NUMBER_FIT_MARGIN = 0.06;

/**
 * The card whose printed number fits the lettering at the card's foot best, when it fits well and clearly better
 * than any other number, and only one of the cards prints it; else null. A weaker match than a number read.
 */
export function matchByNumberFit(cards: readonly CatalogCard[], fits: readonly { text: string; score: number }[]): CatalogMatch | null {
  const [best, second] = fits;
  if (!best || best.score < MIN_NUMBER_FIT) return null;
  if (second && best.score - second.score < MIN_NUMBER_FIT_MARGIN) return null;
  const bearing = cards.filter((card) => printedNumber(card) === best.text);
  return bearing.length === 1 ? { card: bearing[0]!, confidence: 0.55 } : null;
}
