import { AppError } from '../../contracts/errors.ts';
import { newYorkDate } from '../../contracts/money.ts';
import type { Owner } from '../accounts/identity.ts';
import { sameCardmarketPrices, sameGradedValues, type CardmarketPrices, type GradedValues } from '../cards/events.ts';
import { assertNever, type Decider } from '../decider.ts';
import type { PortfolioCardDetails, PortfolioCardEdited, PortfolioCardEvent, PortfolioCardPriced } from './events.ts';

// A card in someone's portfolio, stream `portfolio-card-<id>`. Only its owner sees or changes it: to anyone else
// it does not exist (the same 404 as an id never used, so integer ids cannot be probed). An edit records only the
// fields that changed; a new price is its own event, with its source and New York day, so the card's price
// history is the list of those events.

export interface PortfolioPrice {
  cents: number | null;
  source: string | null;
  /** Cardmarket's euro figures recorded with a market price. */
  cardmarket?: CardmarketPrices | null;
  /** The values at each grade recorded with a market price. */
  graded?: GradedValues | null;
}

export type PortfolioCardState =
  | { status: 'none' }
  | { status: 'held' | 'removed'; cardId: number; owner: Owner; details: PortfolioCardDetails; price: PortfolioPrice };

export type AddPortfolioCard = {
  type: 'AddPortfolioCard';
  data: {
    cardId: number;
    owner: Owner;
    details: PortfolioCardDetails;
    /** `graded`: the values by grade recorded with this price on the graded card it is added from. */
    price: { cents: number; source: string | null; graded?: GradedValues } | null;
    at: string;
    /** The owner's graded card it is added from (the caller checked it is theirs). */
    gradedCardId?: string;
  };
};
export type EditPortfolioCard = {
  type: 'EditPortfolioCard';
  data: {
    cardId: number;
    requestedBy: Owner;
    changes: Partial<PortfolioCardDetails>;
    /** Left out: the price stays. A field of it left out: that part stays. */
    price?: { cents?: number | null; source?: string | null };
    at: string;
  };
};
export type RemovePortfolioCard = { type: 'RemovePortfolioCard'; data: { cardId: number; requestedBy: Owner; at: string } };
/** A market price looked up for the card (the daily refresh, or its graded card's confirmation), with its labelled source. */
export type RefreshPortfolioCardPrice = {
  type: 'RefreshPortfolioCardPrice';
  data: { cardId: number; cents: number; source: string; at: string; cardmarket?: CardmarketPrices; graded?: GradedValues };
};
export type PortfolioCardCommand = AddPortfolioCard | EditPortfolioCard | RemovePortfolioCard | RefreshPortfolioCardPrice;

/** SPEC.md §7: "failure is 'Card not found'". */
export const portfolioCardNotFound = () => new AppError('not_found', 'portfolio_card_not_found', 'Card not found');

/** A price typed in without saying where it came from is the collector's own. */
export const MANUAL_PRICE_SOURCE = 'Manual entry';

const gradeOnlyWhenGraded = () =>
  new AppError('invalid', 'portfolio_grade_needs_graded', 'A grading company and an official grade are kept only for a card marked as graded.');

/** A raw card has no grading company and no official grade; naming either for one is refused. */
function settleGrading(details: PortfolioCardDetails, named: Partial<PortfolioCardDetails>): PortfolioCardDetails {
  if (details.isGraded) return details;
  if ((named.gradingCompany ?? null) !== null || (named.officialGrade ?? null) !== null) throw gradeOnlyWhenGraded();
  return { ...details, gradingCompany: null, officialGrade: null };
}

function priced(cardId: number, price: PortfolioPrice, at: string): PortfolioCardPriced {
  const { cents, source, cardmarket, graded } = price;
  return {
    type: 'PortfolioCardPriced',
    data: { cardId, price: cents, source, priceDate: newYorkDate(at), pricedAt: at, ...(cardmarket ? { cardmarket } : {}), ...(graded ? { graded } : {}) },
  };
}

export function addPortfolioCard(command: AddPortfolioCard, state: PortfolioCardState): PortfolioCardEvent[] {
  const { cardId, owner, price, at } = command.data;
  // Ids come from a sequence, so a used one means a bug or a replayed command: never overwrite a card.
  if (state.status !== 'none') throw new AppError('conflict', 'portfolio_card_exists', 'This card is already in a portfolio.');
  if (!owner.startsWith('user:')) throw new AppError('unauthorized', 'unauthorized', 'Not signed in');
  const details = settleGrading(command.data.details, command.data.details);
  const { gradedCardId } = command.data;
  const events: PortfolioCardEvent[] = [{ type: 'PortfolioCardAdded', data: { cardId, owner, details, addedAt: at, ...(gradedCardId ? { gradedCardId } : {}) } }];
  if (price) events.push(priced(cardId, { cents: price.cents, source: price.source ?? MANUAL_PRICE_SOURCE, graded: price.graded ?? null }, at));
  return events;
}

export function editPortfolioCard(command: EditPortfolioCard, state: PortfolioCardState): PortfolioCardEvent[] {
  const { cardId, requestedBy, changes, price, at } = command.data;
  if (state.status !== 'held' || state.owner !== requestedBy) throw portfolioCardNotFound();

  const next = settleGrading({ ...state.details, ...changes }, changes);
  const changed: Partial<PortfolioCardDetails> = {};
  for (const key of Object.keys(next) as (keyof PortfolioCardDetails)[]) {
    if (next[key] !== state.details[key]) (changed as Record<string, unknown>)[key] = next[key];
  }
  const events: PortfolioCardEvent[] = [];
  if (Object.keys(changed).length > 0) {
    const edited: PortfolioCardEdited = { type: 'PortfolioCardEdited', data: { cardId, changes: changed, editedAt: at } };
    events.push(edited);
  }

  if (price) {
    const cents = price.cents === undefined ? state.price.cents : price.cents;
    const priceChanged = cents !== state.price.cents;
    // A new amount without a source is the collector's own figure, not the old source's.
    const source = cents === null ? null : price.source !== undefined ? price.source : priceChanged ? MANUAL_PRICE_SOURCE : state.price.source;
    if (priceChanged || source !== state.price.source) events.push(priced(cardId, { cents, source }, at));
  }
  return events;
}

/**
 * The daily refresh: the market price becomes the card's price when it changed (the dollar figure, Cardmarket's euro
 * figures or a value by grade beside it). A price the collector typed in (or any source other than the market's) is
 * theirs and stays; a removed card is priced no more.
 */
export function refreshPortfolioCardPrice(command: RefreshPortfolioCardPrice, state: PortfolioCardState): PortfolioCardEvent[] {
  if (state.status !== 'held') return [];
  const { cardId, cents, source, at, cardmarket, graded } = command.data;
  const current = state.price;
  if (current.cents !== null && !isMarketSource(current.source)) return [];
  if (current.cents === cents && sameCardmarketPrices(current.cardmarket, cardmarket) && sameGradedValues(current.graded, graded)) return [];
  return [priced(cardId, { cents, source, cardmarket, graded }, at)];
}

/** Sources the refresh writes ("TCGplayer market, Near Mint, 2026-11-20", "Cardmarket trend, …", "PriceCharting ungraded, …"). */
export function isMarketSource(source: string | null): boolean {
  return source !== null && /^(TCGplayer|Cardmarket|PriceCharting) /.test(source);
}

/** Owner only. Removing one's own card again changes nothing, so a retried delete succeeds. */
export function removePortfolioCard(command: RemovePortfolioCard, state: PortfolioCardState): PortfolioCardEvent[] {
  const { cardId, requestedBy, at } = command.data;
  if (state.status === 'none' || state.owner !== requestedBy) throw portfolioCardNotFound();
  if (state.status === 'removed') return [];
  return [{ type: 'PortfolioCardRemoved', data: { cardId, owner: state.owner, removedAt: at } }];
}

export function evolvePortfolioCard(state: PortfolioCardState, event: PortfolioCardEvent): PortfolioCardState {
  switch (event.type) {
    case 'PortfolioCardAdded': {
      const { cardId, owner, details } = event.data;
      return { status: 'held', cardId, owner, details, price: { cents: null, source: null } };
    }
    case 'PortfolioCardEdited':
      return state.status === 'none' ? state : { ...state, details: { ...state.details, ...event.data.changes } };
    case 'PortfolioCardPriced':
      return state.status === 'none'
        ? state
        : { ...state, price: { cents: event.data.price, source: event.data.source, cardmarket: event.data.cardmarket ?? null, graded: event.data.graded ?? null } };
    case 'PortfolioCardRemoved':
      return state.status === 'none' ? state : { ...state, status: 'removed' };
    default:
      return assertNever(event);
  }
}

export const portfolioCardDecider: Decider<PortfolioCardState, PortfolioCardCommand, PortfolioCardEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolvePortfolioCard,
  decide(command, state) {
    switch (command.type) {
      case 'AddPortfolioCard':
        return addPortfolioCard(command, state);
      case 'EditPortfolioCard':
        return editPortfolioCard(command, state);
      case 'RemovePortfolioCard':
        return removePortfolioCard(command, state);
      case 'RefreshPortfolioCardPrice':
        return refreshPortfolioCardPrice(command, state);
      default:
        return assertNever(command);
    }
  },
};
