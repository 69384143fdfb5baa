import { AppError } from '../../contracts/errors.ts';
import type { Owner } from '../accounts/identity.ts';
import { assertNever, type Decider } from '../decider.ts';
import { identifiedCardName, type CardGrade, type GradingCompany, type SlabLabel } from '../../contracts/grading.ts';
import type { EngineEstimate, EngineVersion } from '../../contracts/professional-grades.ts';
import { sameCardmarketPrices, sameGradedValues, savedOnGrading, type CardDeleted, type CardImage, type CardmarketPrices, type CardEvent, type GradedValues, type CardGraded, type CardOwnerChanged, type CardPriceRecorded, type CardIdentificationConfirmed, type CardRegraded, type CardRenamed, type CardSaved, type ConfirmedCatalogCard, type ProfessionalGradeReported } from './events.ts';
import { knownPrice } from './price.ts';
import { engineEstimateOf, isGradeOnScale, labelVerifies } from './professional-grade.ts';

// A graded card, stream `card-<cardId>`. Its id comes from its owner and images (./card-id.ts), so grading the
// same pictures again finds the card already there. Grading is not saving: the card joins its owner's collection
// when the owner saves it (CardSaved), once. Only the owner may save or delete it, and to anyone else a card they
// do not own does not exist: they get the same 404 as for an id that was never used, so ids cannot be probed.

export type CardState =
  | { status: 'none' }
  /**
   * `price`: the last value recorded (US dollars), null before any, and `cardmarket` and `graded` the euro figures and
   * the values by grade recorded with it. `saved`: in its owner's collection.
   */
  | {
      status: 'graded';
      cardId: string;
      owner: Owner;
      saved: boolean;
      price?: number | null;
      cardmarket?: CardmarketPrices | null;
      graded?: GradedValues | null;
      /** The catalogue card the value shown is for: the one identification matched, or the one its owner confirmed. */
      catalogId?: string | null;
      /** What the latest engine to grade the card said of it (and which engine that was), copied into a professional grade's report. */
      estimate?: EngineEstimate;
      /** The latest professional grade reported, to tell a correction from the same report sent again. */
      reported?: ReportedGrade | null;
      /** The name shown: the owner's (CardRenamed), else what identification stands behind; to tell a rename from the same name sent again. */
      name?: string;
      /** The catalogue card its owner confirmed (CardIdentificationConfirmed), to tell a change from the same sent again. */
      confirmedCatalogId?: string;
    }
  | { status: 'deleted'; cardId: string; owner: Owner; price?: number | null; cardmarket?: CardmarketPrices | null; graded?: GradedValues | null };

export type GradeCard = { type: 'GradeCard'; data: CardGraded['data'] };
export type DeleteCard = { type: 'DeleteCard'; data: { cardId: string; requestedBy: Owner; deletedAt: string } };
export type ClaimGuestCard = { type: 'ClaimGuestCard'; data: { cardId: string; guest: Owner; user: Owner; claimedAt: string } };
export type SaveCard = { type: 'SaveCard'; data: { cardId: string; requestedBy: Owner; sample: boolean; savedAt: string } };
/** A guest's card past the guest's 7 days (DESIGN.md §6), removed by the clean-up job. */
export type ExpireGuestCard = { type: 'ExpireGuestCard'; data: { cardId: string; guest: Owner; expiredAt: string } };
/** A market price of the card: US dollars, who says so, the card's grade, and what the source gave beside it. */
export interface NewCardPrice {
  priceValue: number;
  source: string;
  grade: number;
  cardmarket?: CardmarketPrices;
  graded?: GradedValues;
}
/** A market price looked up for the card (the daily refresh): recorded only when it differs from the last one. */
export type RecordCardPrice = { type: 'RecordCardPrice'; data: NewCardPrice & { cardId: string; priceDate: string; recordedAt: string } };
/** What the confirmed card is worth, looked up as it is confirmed: a price to record, or why there is none (plain words). */
export type ConfirmedCardValue = { priced: true; price: NewCardPrice } | { priced: false; reason: string };
/**
 * The grade the card got from a grading company. `slabLabel` is what the slab photo's label read (null without a
 * photo, or when none was read): the report is verified when it reads the same company and grade.
 */
export type ReportProfessionalGrade = {
  type: 'ReportProfessionalGrade';
  data: {
    cardId: string;
    reportId: string;
    requestedBy: Owner;
    company: GradingCompany;
    grade: number;
    cert: string;
    slabPhoto: CardImage | null;
    slabLabel: SlabLabel | null;
    source: 'owner' | 'order';
    reportedAt: string;
  };
};
/** The stored photos measured again by the engine named (`npm run regrade`). */
export type RegradeCard = { type: 'RegradeCard'; data: { cardId: string; grade: CardGrade; engine: EngineVersion; regradedAt: string } };
/** The owner names the card (issue 35); `name` is already trimmed and checked (1 to 100 characters). */
export type RenameCard = { type: 'RenameCard'; data: { cardId: string; requestedBy: Owner; name: string; renamedAt: string } };
/** The owner confirms which catalogue card it is (issue 32); `card` is the catalogue's and `value` its price, both looked up by the caller. */
export type ConfirmIdentification = {
  type: 'ConfirmIdentification';
  data: { cardId: string; requestedBy: Owner; card: ConfirmedCatalogCard; value: ConfirmedCardValue; confirmedAt: string };
};
interface ReportedGrade {
  company: GradingCompany;
  grade: number;
  cert: string;
  slabPhotoHash: string | null;
}
export type CardCommand = GradeCard | SaveCard | DeleteCard | ClaimGuestCard | ExpireGuestCard | RecordCardPrice | ReportProfessionalGrade | RegradeCard | RenameCard | ConfirmIdentification;

export const cardNotFound = () => new AppError('not_found', 'card_not_found', 'Card not found');

/**
 * Records the grade, and the card's value when a named source gave one. The same owner sending the same
 * images again gets the first grade back (no events). A card its owner deleted is graded afresh.
 */
export function gradeCard(command: GradeCard, state: CardState): CardEvent[] {
  const graded = command.data;
  if (state.status === 'graded') {
    if (state.owner === graded.owner) return [];
    // Only reachable by a guest whose card has since moved to an account.
    throw new AppError('conflict', 'card_owned_elsewhere', 'This card has already been saved to another collection.');
  }
  const events: CardEvent[] = [{ type: 'CardGraded', data: graded }];
  const price = knownPrice(graded.result.identification);
  if (price) {
    const recorded: CardPriceRecorded = {
      type: 'CardPriceRecorded',
      data: {
        cardId: graded.cardId,
        priceDate: graded.gradedAt.slice(0, 10),
        priceValue: price.priceValue,
        source: price.source,
        grade: graded.result.overallGrade,
        recordedAt: graded.gradedAt,
      },
    };
    events.push(recorded);
  }
  return events;
}

/**
 * Owner only: puts a graded card in the collection. Saving again changes nothing (one card however often it is
 * saved, and a sample stays a sample). A deleted card is graded afresh before it can be saved again.
 */
export function saveCard(command: SaveCard, state: CardState): CardEvent[] {
  const { cardId, requestedBy, sample, savedAt } = command.data;
  if (state.status !== 'graded' || state.owner !== requestedBy) throw cardNotFound();
  if (state.saved) return [];
  const saved: CardSaved = { type: 'CardSaved', data: { cardId, owner: state.owner, sample, savedAt } };
  return [saved];
}

/** Owner only. Deleting one's own card again changes nothing, so a retried delete succeeds. */
export function deleteCard(command: DeleteCard, state: CardState): CardEvent[] {
  const { requestedBy, cardId, deletedAt } = command.data;
  if (state.status === 'none' || state.owner !== requestedBy) throw cardNotFound();
  if (state.status === 'deleted') return [];
  const deleted: CardDeleted = { type: 'CardDeleted', data: { cardId, owner: state.owner, deletedAt } };
  return [deleted];
}

/** Moves a guest's card to the account that guest signed in to; a retried claim changes nothing. */
export function claimGuestCard(command: ClaimGuestCard, state: CardState): CardEvent[] {
  const { cardId, guest, user, claimedAt } = command.data;
  if (!guest.startsWith('guest:') || !user.startsWith('user:')) {
    throw new AppError('invalid', 'card_claim_invalid', 'Only a guest card can be claimed, and only by an account.');
  }
  if (state.status === 'none' || (state.owner !== guest && state.owner !== user)) throw cardNotFound();
  if (state.status === 'deleted' || state.owner === user) return [];
  const changed: CardOwnerChanged = { type: 'CardOwnerChanged', data: { cardId, from: guest, to: user, changedAt: claimedAt } };
  return [changed];
}

/**
 * A guest's card whose guest session has expired unclaimed goes like a deleted one (CardDeleted, so every read model
 * and a rebuild drop it alike). A card claimed by an account meanwhile, or already gone, is left as it is.
 */
export function expireGuestCard(command: ExpireGuestCard, state: CardState): CardEvent[] {
  const { cardId, guest, expiredAt } = command.data;
  if (!guest.startsWith('guest:')) throw new AppError('invalid', 'card_expiry_invalid', 'Only a guest card expires.');
  if (state.status !== 'graded' || state.owner !== guest) return [];
  const deleted: CardDeleted = { type: 'CardDeleted', data: { cardId, owner: guest, deletedAt: expiredAt } };
  return [deleted];
}

function priceRecorded(data: RecordCardPrice['data']): CardPriceRecorded {
  const { cardId, priceValue, source, priceDate, grade, recordedAt, cardmarket, graded } = data;
  return { type: 'CardPriceRecorded', data: { cardId, priceDate, priceValue, source, grade, recordedAt, ...(cardmarket ? { cardmarket } : {}), ...(graded ? { graded } : {}) } };
}

/** Any figure differs from the last recorded: the dollar price, Cardmarket's euro figures, or a value at some grade. */
function priceMoved(state: CardState & { status: 'graded' }, price: NewCardPrice): boolean {
  const sameDollars = Math.round((state.price ?? -1) * 100) === Math.round(price.priceValue * 100);
  return !(sameDollars && sameCardmarketPrices(state.cardmarket, price.cardmarket) && sameGradedValues(state.graded, price.graded));
}

/**
 * The price history moves only when a price does: the same figures on a later day record nothing. The figures are
 * the dollar price and, when the sources give them, Cardmarket's euro trend and 30-day average and the values by grade.
 */
export function recordCardPrice(command: RecordCardPrice, state: CardState): CardEvent[] {
  if (state.status !== 'graded') return []; // a deleted card is priced no more
  return priceMoved(state, command.data) ? [priceRecorded(command.data)] : [];
}

/**
 * Owner only, and only an account (the public figures weigh reports per account, and a guest has none). A grade the
 * company does not give is refused. The same report sent again records nothing; anything else reported supersedes it.
 */
export function reportProfessionalGrade(command: ReportProfessionalGrade, state: CardState): CardEvent[] {
  const { cardId, reportId, requestedBy, company, grade, cert, slabPhoto, slabLabel, source, reportedAt } = command.data;
  if (state.status !== 'graded' || state.owner !== requestedBy) throw cardNotFound();
  if (!requestedBy.startsWith('user:')) throw new AppError('forbidden', 'sign_in_to_report', 'Sign in to report a professional grade.');
  if (!isGradeOnScale(company, grade)) {
    const scale = company === 'PSA' ? 'whole grades from 1 to 10 and half grades from 1.5 to 8.5' : 'grades from 1 to 10 in half steps';
    throw new AppError('invalid', 'grade_not_on_scale', `${company} gives ${scale}; ${grade} is not one of them.`);
  }
  const last = state.reported;
  if (last && last.company === company && last.grade === grade && last.cert === cert && last.slabPhotoHash === (slabPhoto?.hash ?? null)) return [];
  const reported: ProfessionalGradeReported = {
    type: 'ProfessionalGradeReported',
    data: {
      cardId,
      reportId,
      reportedBy: requestedBy,
      company,
      grade,
      cert,
      slabPhoto,
      slabLabel,
      verified: labelVerifies(slabLabel, company, grade),
      source,
      estimate: state.estimate ?? unreachableEstimate(),
      reportedAt,
    },
  };
  return [reported];
}

export const sameEngine = (a: EngineVersion, b: EngineVersion) => a.vision === b.vision && a.calibration === b.calibration;

/**
 * Records the new grade beside the old. A card already graded by this engine records nothing (so a regrade run
 * again skips it), and neither does a deleted one: nobody sees its grade any more.
 */
export function regradeCard(command: RegradeCard, state: CardState): CardEvent[] {
  if (state.status !== 'graded') return [];
  const { cardId, grade, engine, regradedAt } = command.data;
  const previous = state.estimate ?? unreachableEstimate();
  if (sameEngine(previous.engine, engine)) return [];
  const regraded: CardRegraded = { type: 'CardRegraded', data: { cardId, grade, engine, previous: { overallGrade: previous.overallGrade, engine: previous.engine }, regradedAt } };
  return [regraded];
}

/**
 * Owner only, guests included (their cards are theirs in their browser): to anyone else the card does not exist.
 * The name it already has records nothing, so a rename sent twice is one rename.
 */
export function renameCard(command: RenameCard, state: CardState): CardEvent[] {
  const { cardId, requestedBy, name, renamedAt } = command.data;
  if (state.status !== 'graded' || state.owner !== requestedBy) throw cardNotFound();
  if (state.name === name) return [];
  const renamed: CardRenamed = { type: 'CardRenamed', data: { cardId, name, renamedBy: requestedBy, renamedAt } };
  return [renamed];
}

/**
 * Owner only, guests included, like a rename: to anyone else the card does not exist. The card's value follows at
 * once: its price is recorded right after the confirmation, or the confirmation says why there is none. The card
 * already confirmed records no second confirmation (a confirmation sent twice is one), only a price that moved.
 */
export function confirmIdentification(command: ConfirmIdentification, state: CardState): CardEvent[] {
  const { cardId, requestedBy, card, value, confirmedAt } = command.data;
  if (state.status !== 'graded' || state.owner !== requestedBy) throw cardNotFound();
  const price = value.priced ? { ...value.price, cardId, priceDate: confirmedAt.slice(0, 10), recordedAt: confirmedAt } : null;
  if (state.confirmedCatalogId === card.catalogId) return price && priceMoved(state, price) ? [priceRecorded(price)] : [];
  const confirmed: CardIdentificationConfirmed = {
    type: 'CardIdentificationConfirmed',
    data: { cardId, card, confirmedBy: requestedBy, confirmedAt, ...(value.priced ? {} : { valueUnavailable: value.reason }) },
  };
  if (!price) return [confirmed];
  // Another card's value gives way to this one's, so its price is recorded even at the same figure; the card it was
  // already shown as keeps its value, and records only a price that moved.
  const sameCard = state.catalogId === card.catalogId;
  return sameCard && !priceMoved(state, price) ? [confirmed] : [confirmed, priceRecorded(price)];
}

/** Every CardGraded gives the state its estimate; a graded state without one is a bug. */
function unreachableEstimate(): never {
  throw new Error('A graded card without the engine estimate it was graded with');
}

export function evolveCard(state: CardState, event: CardEvent): CardState {
  switch (event.type) {
    case 'CardGraded':
      return {
        status: 'graded',
        cardId: event.data.cardId,
        owner: event.data.owner,
        saved: savedOnGrading(event.data),
        estimate: engineEstimateOf(event.data.result, event.data.engine),
        reported: null,
        name: identifiedCardName(event.data.result.identification),
        catalogId: event.data.result.identification.catalogId ?? null,
      };
    case 'CardSaved':
      return state.status === 'graded' ? { ...state, saved: true } : state;
    case 'CardPriceRecorded':
      return state.status === 'none' ? state : { ...state, price: event.data.priceValue, cardmarket: event.data.cardmarket ?? null, graded: event.data.graded ?? null };
    case 'CardDeleted':
      return state.status === 'none' ? state : { ...state, status: 'deleted' };
    case 'CardOwnerChanged':
      return state.status === 'none' ? state : { ...state, owner: event.data.to };
    case 'ProfessionalGradeReported': {
      if (state.status !== 'graded') return state;
      const { company, grade, cert, slabPhoto } = event.data;
      return { ...state, reported: { company, grade, cert, slabPhotoHash: slabPhoto?.hash ?? null } };
    }
    case 'CardRegraded':
      // Later reports hold the professional grade against the latest engine's estimate.
      return state.status === 'graded' ? { ...state, estimate: engineEstimateOf(event.data.grade, event.data.engine) } : state;
    case 'CardRenamed':
      return state.status === 'graded' ? { ...state, name: event.data.name } : state;
    case 'CardIdentificationConfirmed':
      return state.status === 'graded' ? { ...state, name: event.data.card.cardName, confirmedCatalogId: event.data.card.catalogId, catalogId: event.data.card.catalogId } : state;
    default:
      return assertNever(event);
  }
}

export const cardDecider: Decider<CardState, CardCommand, CardEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveCard,
  decide(command, state) {
    switch (command.type) {
      case 'GradeCard':
        return gradeCard(command, state);
      case 'SaveCard':
        return saveCard(command, state);
      case 'DeleteCard':
        return deleteCard(command, state);
      case 'ClaimGuestCard':
        return claimGuestCard(command, state);
      case 'ExpireGuestCard':
        return expireGuestCard(command, state);
      case 'RecordCardPrice':
        return recordCardPrice(command, state);
      case 'ReportProfessionalGrade':
        return reportProfessionalGrade(command, state);
      case 'RegradeCard':
        return regradeCard(command, state);
      case 'RenameCard':
        return renameCard(command, state);
      case 'ConfirmIdentification':
        return confirmIdentification(command, state);
      default:
        return assertNever(command);
    }
  },
};
