import { editDistance, nameKey, numberKey, type Catalog, type CatalogCard } from './catalog.ts';
import { matchCard, printedNumber, readNameSimilarity, releaseYear } from './match.ts';

// Identifying a card by everything read on its face (issue 32): not only the name and the collector number but the
// HP, the attack and ability names, the damage figures, "Evolves from X", "Illus. X", the set code and the
// regulation mark. Every catalogue card some of that points at is a candidate; each is scored by the facts it shares
// with what was read, and loses for each it contradicts. A name misread past recognising ("Weeds Kakuns") still
// finds the card by its attacks; a number two sets print (12/149) is decided by the attacks or the HP. The answer
// names the facts that matched and how sure it is; it is sure only when the best card is well ahead of the next
// printing and rests on more than one kind of fact, so a wrong card is never given with high confidence.

/** What was read off the card, beside the name and number (all optional: a reader gives what it could read). */
export interface FaceReading {
  /** Names read in the name band, best guess first. */
  names: readonly string[];
  /** The collector number as read ("12/149", "SWSH050"), or null. */
  number: string | null;
  setCodes?: readonly string[];
  regulationMark?: string | null;
  /** Every other line of text read on the face: the HP, the attack block, the evolves-from and illustrator lines. */
  lines?: readonly string[];
}

/** One fact shared with the card (or contradicting it), as shown to the collector. */
export interface Evidence {
  fact: 'name' | 'number' | 'set code' | 'regulation mark' | 'HP' | 'attack' | 'ability' | 'damage' | 'evolves from' | 'illustrator';
  /** What the card prints: "Razor Leaf", "12/149", "240". */
  value: string;
  /** False for a fact read that the card contradicts. */
  agrees: boolean;
  /** Only part of it agrees (the number without its total, or the total without its number): it pins no printing. */
  partly?: true;
}

export interface ScoredCandidate {
  card: CatalogCard;
  score: number;
  evidence: Evidence[];
}

export interface EvidenceMatch {
  /** The card the evidence names, when it names one clearly enough; else null. */
  card: CatalogCard | null;
  /** 0..1 for `card`; 0 when there is none. */
  confidence: number;
  evidence: Evidence[];
  /** The best candidates, best first (the matched card first when there is one). */
  candidates: ScoredCandidate[];
}

/** The facts read from the lines, before any card is looked at. */
export interface ReadFacts {
  hp: string | null;
  evolvesFrom: string | null;
  illustrator: string | null;
  /** Damage figures read ("30", "120"), without their ×/+. */
  damages: string[];
  /** Each line's letters as a name key, for looking attack and ability names up. */
  keys: string[];
}

/** The facts the lines state in their own words: "HP 120", "120 HP", "Evolves from Dartrix", "Illus. 5ban Graphics". */
export function readFacts(lines: readonly string[]): ReadFacts {
  let hp: string | null = null;
  let evolvesFrom: string | null = null;
  let illustrator: string | null = null;
  const damages: string[] = [];
  for (const line of lines) {
    const hpRead = /\bHP\s*(\d{2,3})\b|\b(\d{2,3})\s*HP\b/i.exec(line);
    if (hpRead && hp === null) hp = hpRead[1] ?? hpRead[2]!;
    const evolves = /evolves?\s*from\s*:?\s*(\p{L}[\p{L}'’.\- ]{1,24})/iu.exec(line);
    if (evolves && evolvesFrom === null) evolvesFrom = evolves[1]!.trim().split(/\s{2,}/)[0]!.replace(/\s+(Put|Stage|Basic).*$/i, '');
    const illus = /\b(?:Illus|lllus|Ilus|llus)\w*\.?\s*[:.]?\s*([\p{L}\d][\p{L}\d'’.\- ]{1,30})/iu.exec(line);
    if (illus && illustrator === null) illustrator = illus[1]!.trim();
    if (hpRead || evolves || illus) continue;
    // A damage figure stands alone at a line's end, a multiple of ten with an optional × or +.
    for (const found of line.matchAll(/(?<![\p{L}\p{N}/])(\d{2,3})\s*[×x+]?(?=\s*$|\s{2,})/gu)) {
      const value = Number(found[1]);
      if (value % 10 === 0 && value >= 10 && value <= 400) damages.push(String(value));
    }
  }
  return { hp, evolvesFrom, illustrator, damages, keys: lines.map(nameKey).filter((key) => key.length >= 3) };
}

/** Attack and ability names shorter than this are found by chance in stray letters ("Hide", "Ram"). */
const MIN_ATTACK_KEY = 5;

/** How many letters of a name may be misread and it still be found in a line: one in six, at most three. */
const slipsAllowed = (length: number) => Math.min(3, Math.floor(length / 6));

/** Whether a line holds the name (its letters, within a slip or so): "ChloroscytheGX50x" holds "Chloroscythe-GX". */
export function lineHolds(lineKey: string, name: string): boolean {
  const key = nameKey(name);
  if (key.length < MIN_ATTACK_KEY || lineKey.length < key.length - 1) return false;
  if (lineKey.includes(key)) return true;
  const slips = slipsAllowed(key.length);
  if (slips === 0) return false;
  // The name against each window of the line as long as it (a slip may add or drop a letter: one longer and shorter too).
  for (const width of [key.length, key.length + 1, key.length - 1]) {
    if (width > lineKey.length) continue;
    for (let at = 0; at + width <= lineKey.length; at++) if (editDistance(lineKey.slice(at, at + width), key, slips) <= slips) return true;
  }
  return false;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/** How much each fact counts. A number with its total or an attack picks a printing; a name narrows to many. */
const WEIGHT = {
  name: 3,
  numberWithTotal: 4,
  numberAlone: 2,
  numberNearly: 1,
  setCode: 1.5,
  regulationMark: 0.5,
  hp: 1,
  attack: 2,
  ability: 2,
  damage: 0.5,
  evolvesFrom: 1.5,
  illustrator: 1.5,
} as const;
/** What a fact read that the card contradicts takes off. */
const CONTRADICTS = { name: 3, number: 2, hp: 1.5, evolvesFrom: 1.5, illustrator: 1, regulationMark: 0.5 } as const;

/** A name read at least this close is the card's name with a slip or two; below, it is another name. */
const SAME_NAME = 0.75;
/** Names read this close are looked up to gather candidates ("Kakuns" for Kakuna is 0.83). */
const CANDIDATE_NAME = 0.7;
/** A card is given when it scores at least this, and this far ahead of the next card that prints other facts. */
const MIN_SCORE = 4;
const MIN_MARGIN = 1.5;
/** The score and lead at which it is sure (confidence ≥ 0.8): at least two kinds of fact and a clear lead. */
const SURE_SCORE = 6;
const SURE_MARGIN = 3;
/** How many candidates are offered when not sure, and the least score one needs (a number, an attack, a name and more). */
export const MAX_OFFERED = 3;
const MIN_OFFERED_SCORE = 2;

function parseNumber(read: string): { number: string; total: string | null } | null {
  const text = read.replace(/\s+/g, '').toUpperCase();
  const fraction = /^([A-Z]{0,4}\d{1,4}[A-Z]?)\/([A-Z]{0,4}\d{1,4})$/.exec(text);
  if (fraction) return { number: fraction[1]!, total: fraction[2]!.replace(/\D/g, '').replace(/^0+/, '') };
  if (/^[A-Z]{0,5}\d{1,4}[A-Z]?$/.test(text)) return { number: text, total: null };
  return null;
}

/** The catalogue's cards some of the reading points at: by number, by a name read, by an attack or ability read. */
function gatherCandidates(catalog: Catalog, reading: FaceReading, facts: ReadFacts): Map<string, CatalogCard> {
  const found = new Map<string, CatalogCard>();
  const add = (cards: readonly CatalogCard[]) => {
    for (const card of cards) found.set(card.id, card);
  };
  const parsed = reading.number ? parseNumber(reading.number) : null;
  if (parsed) add(parsed.total ? catalog.byPrintedNumber(parsed.number, parsed.total) : catalog.byNumber(parsed.number));
  for (const name of reading.names.slice(0, 8)) if (nameKey(name).length >= 4) for (const match of catalog.byName(name, { minSimilarity: CANDIDATE_NAME, limit: 3 })) add(match.cards);
  if (facts.evolvesFrom) for (const match of catalog.byName(facts.evolvesFrom, { minSimilarity: 0.8, limit: 1 })) add(catalog.evolutionsOf(match.name));
  if (facts.keys.length > 0) add(catalog.byMoveInLines(facts.keys, lineHolds));
  return found;
}

/**
 * The card's score against what was read, and the facts behind it. `knownName`: the catalogue's name the name band
 * read plainly (see nameReadPlainly); a card of another name is contradicted by it.
 */
export function scoreCard(card: CatalogCard, reading: FaceReading, facts: ReadFacts, knownName: string | null = null): ScoredCandidate {
  const evidence: Evidence[] = [];
  let score = 0;
  const agree = (fact: Evidence['fact'], value: string, weight: number) => {
    evidence.push({ fact, value, agrees: true });
    score += weight;
  };
  const disagree = (fact: Evidence['fact'], value: string, weight: number) => {
    evidence.push({ fact, value, agrees: false });
    score -= weight;
  };

  let nameFit = 0;
  for (const name of reading.names) nameFit = Math.max(nameFit, readNameSimilarity(name, card.name));
  if (nameFit >= SAME_NAME) agree('name', card.name, WEIGHT.name * nameFit);
  else if (knownName && nameKey(knownName) !== nameKey(card.name)) disagree('name', card.name, CONTRADICTS.name);

  const parsed = reading.number ? parseNumber(reading.number) : null;
  if (parsed) {
    const sameNumber = numberKey(parsed.number) === numberKey(card.number);
    const sameTotal = parsed.total !== null && parsed.total === String(card.set.printedTotal);
    if (sameNumber && sameTotal) agree('number', printedNumber(card), WEIGHT.numberWithTotal);
    else if (sameNumber && parsed.total === null) agree('number', printedNumber(card), WEIGHT.numberAlone);
    else if (sameNumber || sameTotal) {
      evidence.push({ fact: 'number', value: printedNumber(card), agrees: true, partly: true });
      score += WEIGHT.numberNearly;
    }
    else disagree('number', printedNumber(card), CONTRADICTS.number);
  }

  const codes = new Set((reading.setCodes ?? []).map((code) => code.toUpperCase()));
  if (card.set.code && codes.has(card.set.code.toUpperCase())) agree('set code', card.set.code, WEIGHT.setCode);

  if (reading.regulationMark && card.regulationMark) {
    if (reading.regulationMark.toUpperCase() === card.regulationMark) agree('regulation mark', card.regulationMark, WEIGHT.regulationMark);
    else disagree('regulation mark', card.regulationMark, CONTRADICTS.regulationMark);
  }

  if (facts.hp && card.hp) {
    if (facts.hp === card.hp) agree('HP', card.hp, WEIGHT.hp);
    else disagree('HP', card.hp, CONTRADICTS.hp);
  }

  const damagesLeft = [...facts.damages];
  for (const attack of card.attacks) {
    if (facts.keys.some((key) => lineHolds(key, attack.name))) agree('attack', attack.name, WEIGHT.attack);
    const digits = attack.damage?.replace(/\D/g, '');
    const at = digits ? damagesLeft.indexOf(digits) : -1;
    if (at >= 0) {
      damagesLeft.splice(at, 1);
      agree('damage', attack.damage!, WEIGHT.damage);
    }
  }
  for (const ability of card.abilities) if (facts.keys.some((key) => lineHolds(key, ability))) agree('ability', ability, WEIGHT.ability);

  if (facts.evolvesFrom) {
    // A Basic card prints no "Evolves from": one read contradicts it as much as another name does.
    if (card.evolvesFrom && readNameSimilarity(facts.evolvesFrom, card.evolvesFrom) >= SAME_NAME) agree('evolves from', card.evolvesFrom, WEIGHT.evolvesFrom);
    else disagree('evolves from', card.evolvesFrom ?? 'nothing', CONTRADICTS.evolvesFrom);
  }
  if (facts.illustrator && card.artist) {
    const fit = 1 - editDistance(nameKey(facts.illustrator), nameKey(card.artist)) / Math.max(nameKey(facts.illustrator).length, nameKey(card.artist).length);
    if (fit >= SAME_NAME || nameKey(facts.illustrator).startsWith(nameKey(card.artist))) agree('illustrator', card.artist, WEIGHT.illustrator);
    else disagree('illustrator', card.artist, CONTRADICTS.illustrator);
  }
  return { card, score: round2(score), evidence };
}

/** Two printings the reading cannot tell apart: everything read agrees with both alike (reprints of one face). */
const sameFace = (a: ScoredCandidate, b: ScoredCandidate) =>
  a.evidence.length === b.evidence.length && a.evidence.every((e, i) => e.fact === b.evidence[i]!.fact && e.agrees === b.evidence[i]!.agrees && e.value === b.evidence[i]!.value);

/** How many kinds of fact agree (a name and an attack are two; two attacks are one). */
const kindsOf = (evidence: readonly Evidence[]) => new Set(evidence.filter((e) => e.agrees && e.fact !== 'damage').map((e) => e.fact)).size;

/** Whether the evidence pins a printing, not only a name: a number with its total, a set code, an attack or ability, an illustrator. */
const pinsPrinting = (evidence: readonly Evidence[]) => evidence.some((e) => e.agrees && !e.partly && ['number', 'set code', 'attack', 'ability', 'illustrator'].includes(e.fact));

/**
 * Whether the card rests on its name or its number (with its total, or a number alone) read, and no name read
 * contradicts it: attacks, HP and illustrator alone are not given as a card, however well they fit (a drawn or
 * fake face may carry a real card's attack).
 */
const anchored = (evidence: readonly Evidence[]) =>
  evidence.some((e) => e.agrees && !e.partly && (e.fact === 'name' || e.fact === 'number')) && !evidence.some((e) => !e.agrees && e.fact === 'name');

/** A name read this close to a catalogue name is that name, read plainly: a card of another name is contradicted. */
const PLAIN_NAME = 0.9;

/** The catalogue's name the first name read is, when read plainly (within a slip of it); else null. */
export function nameReadPlainly(catalog: Catalog, reading: Pick<FaceReading, 'names'>): string | null {
  const [first] = reading.names;
  if (!first || nameKey(first).length < 4) return null;
  return catalog.byName(first, { minSimilarity: PLAIN_NAME, limit: 1 })[0]?.name ?? null;
}

/**
 * The card everything read points at, with the facts that matched and a confidence; or none, with the best
 * candidates to choose from. Given only when the best card scores enough, on two kinds of fact one of which pins a
 * printing, and is ahead of every other card (a reprint with the same face and another number is another card:
 * only a number, code or illustrator read tells them apart).
 */
export function matchByEvidence(catalog: Catalog, reading: FaceReading): EvidenceMatch {
  const facts = readFacts(reading.lines ?? []);
  const knownName = nameReadPlainly(catalog, reading);
  const scored = [...gatherCandidates(catalog, reading, facts).values()]
    .map((card) => scoreCard(card, reading, facts, knownName))
    .filter((candidate) => candidate.score >= MIN_OFFERED_SCORE)
    .sort((a, b) => b.score - a.score || b.card.set.releaseDate.localeCompare(a.card.set.releaseDate) || a.card.id.localeCompare(b.card.id));
  const [best, second] = scored;
  if (!best) return { card: null, confidence: 0, evidence: [], candidates: [] };
  const margin = second ? best.score - second.score : best.score;
  const tied = second !== undefined && sameFace(best, second);
  const given = !tied && best.score >= MIN_SCORE && margin >= MIN_MARGIN && kindsOf(best.evidence) >= 2 && pinsPrinting(best.evidence) && anchored(best.evidence);
  if (!given) return { card: null, confidence: 0, evidence: best.evidence, candidates: scored.slice(0, MAX_OFFERED) };
  const sure = best.score >= SURE_SCORE && margin >= SURE_MARGIN;
  // 0.5 at the bar, rising with the lead; at most 0.95 (what was read may still be another card's print), and
  // under 0.8 unless sure.
  const confidence = round2(Math.min(sure ? 0.95 : 0.75, 0.5 + 0.06 * (best.score - MIN_SCORE) + 0.05 * (margin - MIN_MARGIN)));
  return { card: best.card, confidence: Math.max(0.5, confidence), evidence: best.evidence, candidates: scored.slice(0, MAX_OFFERED) };
}

/** A candidate as the collector is offered it: the card, its set, number and year. */
export function offeredCandidate(card: CatalogCard) {
  return { catalogId: card.id, cardName: card.name, cardSet: card.set.name, cardNumber: printedNumber(card), cardYear: releaseYear(card) };
}

/** The evidence as short phrases: "name Kakuna", "attack Stiffen", "not HP 70". */
export function evidencePhrases(evidence: readonly Evidence[]): string[] {
  return evidence.map((e) => `${e.agrees ? '' : 'not '}${e.fact} ${e.value}${e.partly ? ' (in part)' : ''}`);
}

/** At or above this a match is sure: no candidates are offered beside it. */
export const SURE_CONFIDENCE = 0.8;
/** When the name-and-number match and the evidence name different cards, the evidence wins by this lead only. */
const OVERRULE_MARGIN = SURE_MARGIN;
/** Two ways of matching that disagree are never sure. */
const DISPUTED_CONFIDENCE = 0.6;

export interface Identified {
  /** The card, or null when neither the name and number nor the evidence name one. */
  match: { card: CatalogCard; confidence: number } | null;
  /** The facts read that the matched card (or, unmatched, the best candidate) shares, or contradicts. */
  evidence: Evidence[];
  /** When not sure: the best candidates, the matched card first. Empty when sure. */
  candidates: ScoredCandidate[];
}

/**
 * The card read, by the name and number (matchCard: a name and a number agreeing is the surest there is) and by
 * everything else read (matchByEvidence): the two agreeing, or only one answering, give its card; the evidence
 * overrules the name and number only when well ahead of the card they name, and then is not sure.
 */
export function identifyCard(catalog: Catalog, reading: FaceReading): Identified {
  const plain = matchCard(catalog, reading);
  const byEvidence = matchByEvidence(catalog, reading);
  const unsure = (match: Identified['match'], evidence: Evidence[]): Identified => {
    if (match && match.confidence >= SURE_CONFIDENCE) return { match, evidence, candidates: [] };
    const others = byEvidence.candidates.filter((candidate) => candidate.card.id !== match?.card.id);
    const first = match ? [byEvidence.candidates.find((c) => c.card.id === match.card.id) ?? { card: match.card, score: 0, evidence }] : [];
    return { match, evidence, candidates: [...first, ...others].slice(0, MAX_OFFERED) };
  };
  if (!plain) return unsure(byEvidence.card ? { card: byEvidence.card, confidence: byEvidence.confidence } : null, byEvidence.evidence);
  const facts = readFacts(reading.lines ?? []);
  const plainScored = scoreCard(plain.card, reading, facts, nameReadPlainly(catalog, reading));
  // A match by the name alone (no number read agrees with it) that what else was read contradicts (another HP,
  // another evolves-from), and another card fitting better: the name was likely another's read with a slip
  // ("Hydreigoc": Hydreigon, or Hydreigon C?).
  const [best] = byEvidence.candidates;
  const nameAlone = !plainScored.evidence.some((e) => e.fact === 'number' && e.agrees);
  const contradicted = plainScored.evidence.some((e) => !e.agrees);
  if (nameAlone && contradicted && best && best.card.id !== plain.card.id && best.score > plainScored.score) {
    const match = byEvidence.card ? { card: byEvidence.card, confidence: Math.min(byEvidence.confidence, DISPUTED_CONFIDENCE) } : null;
    return unsure(match, byEvidence.evidence);
  }
  if (byEvidence.card && byEvidence.card.id !== plain.card.id) {
    const best = byEvidence.candidates[0]!;
    if (best.score - plainScored.score >= OVERRULE_MARGIN) return unsure({ card: best.card, confidence: Math.min(byEvidence.confidence, DISPUTED_CONFIDENCE) }, best.evidence);
    return unsure({ card: plain.card, confidence: Math.min(plain.confidence, DISPUTED_CONFIDENCE) }, plainScored.evidence);
  }
  return unsure(plain, plainScored.evidence);
}
