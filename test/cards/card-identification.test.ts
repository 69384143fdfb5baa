import { describe, expect, it } from 'vitest';
import { confirmIdentificationSchema } from '../../src/contracts/cards.ts';
import { cardDecider, cardEventSchemas, type CardDeleted, type CardGraded, type CardIdentificationConfirmed, type CardOwnerChanged, type CardPriceRecorded, type ConfirmedCardValue, type ConfirmedCatalogCard, type GradedValues, type NewCardPrice } from '../../src/domain/cards/index.ts';
import { specify } from '../accounts/decider-spec.ts';
import { cardGradedData, gradedCard } from './graded-card-fixture.ts';

// Issue 32: the owner confirms which catalogue card it is (one of the candidates offered when identification was not
// sure), recorded on the card's stream with the catalogue's facts of it, and the card's value follows at once: the
// confirmed card's price is recorded right after, or the confirmation says why there is none.

const given = specify(cardDecider);
const graded: CardGraded = { type: 'CardGraded', data: cardGradedData() };
const cardId = graded.data.cardId;
const at = '2026-03-04T10:00:00.000Z';
const decidueye: ConfirmedCatalogCard = {
  catalogId: 'sm1-12',
  cardName: 'Decidueye-GX',
  cardSet: 'Sun & Moon',
  cardNumber: '12/149',
  cardYear: '2017',
  rarity: 'Ultra Rare',
  cardFacts: 'Stage 2 GX Pokémon. 240 HP.',
  setDescription: 'Sun & Moon (Sun & Moon series), released 2017-02-03; 173 cards, 149 in its numbering.',
};
const servine: ConfirmedCatalogCard = { ...decidueye, catalogId: 'bw7-12', cardName: 'Servine', cardSet: 'Boundaries Crossed', cardYear: '2012' };
type Who = `user:${string}` | `guest:${string}`;
const UNAVAILABLE = 'PriceCharting could not be reached';
const unpriced: ConfirmedCardValue = { priced: false, reason: UNAVAILABLE };
const confirm = (card: ConfirmedCatalogCard, requestedBy: Who = 'user:u1', value: ConfirmedCardValue = unpriced) =>
  ({ type: 'ConfirmIdentification', data: { cardId, requestedBy, card, value, confirmedAt: at } }) as const;
const confirmed = (card: ConfirmedCatalogCard, confirmedBy: Who = 'user:u1', valueUnavailable: string | null = UNAVAILABLE): CardIdentificationConfirmed => ({
  type: 'CardIdentificationConfirmed',
  data: { cardId, card, confirmedBy, confirmedAt: at, ...(valueUnavailable ? { valueUnavailable } : {}) },
});

const byGrade = (psa10Cents: number): GradedValues => ({
  source: 'PriceCharting',
  currency: 'USD',
  asOf: '2026-03-04',
  product: 'Decidueye GX #12 · Pokemon Sun & Moon',
  grades: [
    { label: 'Grade 9', grade: 9, cents: 2_500 },
    { label: 'PSA 10', grade: 10, cents: psa10Cents },
  ],
});
const price = (priceValue: number, graded: GradedValues | null = byGrade(9_000)): NewCardPrice => ({
  priceValue,
  source: 'PriceCharting ungraded, 2026-03-04',
  grade: 9,
  ...(graded ? { graded } : {}),
});
const priced = (p: NewCardPrice): ConfirmedCardValue => ({ priced: true, price: p });
const recorded = (p: NewCardPrice): CardPriceRecorded => ({ type: 'CardPriceRecorded', data: { cardId, priceDate: '2026-03-04', recordedAt: at, ...p } });

describe('confirming the catalogue card', () => {
  it("records the owner's choice with the catalogue's facts of it", () => {
    given([graded]).when(confirm(decidueye)).then([confirmed(decidueye)]);
  });

  it('records nothing for the card already confirmed, and records a change of mind', () => {
    given([graded, confirmed(decidueye)]).when(confirm(decidueye)).then([]);
    given([graded, confirmed(decidueye)]).when(confirm(servine)).then([confirmed(servine)]);
  });

  it('lets a guest confirm the card kept in their browser, and the account it moved to after that', () => {
    const guestCard: CardGraded = { type: 'CardGraded', data: { ...graded.data, owner: 'guest:g1' } };
    given([guestCard]).when(confirm(decidueye, 'guest:g1')).then([confirmed(decidueye, 'guest:g1')]);
    const moved: CardOwnerChanged = { type: 'CardOwnerChanged', data: { cardId, from: 'guest:g1', to: 'user:u1', changedAt: at } };
    given([guestCard, moved]).when(confirm(decidueye)).then([confirmed(decidueye)]);
    given([guestCard, moved]).when(confirm(decidueye, 'guest:g1')).thenRefuses('card_not_found');
  });

  it('tells anyone but the owner the card does not exist, and has nothing to confirm before a grade or after a delete', () => {
    const deleted: CardDeleted = { type: 'CardDeleted', data: { cardId, owner: 'user:u1', deletedAt: at } };
    given([graded]).when(confirm(decidueye, 'user:u2')).thenRefuses('card_not_found');
    given([]).when(confirm(decidueye)).thenRefuses('card_not_found');
    given([graded, deleted]).when(confirm(decidueye)).thenRefuses('card_not_found');
  });

  it('prices the confirmed card at once: the confirmation, then its price with the values by grade', () => {
    given([graded]).when(confirm(decidueye, 'user:u1', priced(price(4.2)))).then([confirmed(decidueye, 'user:u1', null), recorded(price(4.2))]);
    // A change of mind prices the other card, even at the same figure: the value shown was the first card's.
    given([graded, confirmed(decidueye, 'user:u1', null), recorded(price(4.2))])
      .when(confirm(servine, 'user:u1', priced(price(4.2))))
      .then([confirmed(servine, 'user:u1', null), recorded(price(4.2))]);
  });

  it('says why the value is missing when the price sources cannot say, and the confirmation stands', () => {
    given([graded]).when(confirm(decidueye)).then([confirmed(decidueye)]);
    given([graded, confirmed(decidueye, 'user:u1', null), recorded(price(4.2))]).when(confirm(servine)).then([confirmed(servine)]);
  });

  it('the card already confirmed records no second confirmation, only a price that moved (a value by grade too)', () => {
    const past = [graded, confirmed(decidueye, 'user:u1', null), recorded(price(4.2))];
    given(past).when(confirm(decidueye, 'user:u1', priced(price(4.2)))).then([]);
    given(past).when(confirm(decidueye)).then([]);
    given(past).when(confirm(decidueye, 'user:u1', priced(price(4.5)))).then([recorded(price(4.5))]);
    given(past).when(confirm(decidueye, 'user:u1', priced(price(4.2, byGrade(9_500))))).then([recorded(price(4.2, byGrade(9_500)))]);
    given(past).when(confirm(decidueye, 'user:u1', priced(price(4.2, null)))).then([recorded(price(4.2, null))]);
  });

  it('the card identification had matched keeps its value: its price is recorded only when it moved', () => {
    const matched: CardGraded = { type: 'CardGraded', data: { ...graded.data, result: gradedCard({ identification: { source: 'ocr', cardName: 'Decidueye-GX', catalogId: 'sm1-12', catalogConfidence: 0.6 } }) } };
    given([matched, recorded(price(4.2))]).when(confirm(decidueye, 'user:u1', priced(price(4.2)))).then([confirmed(decidueye, 'user:u1', null)]);
    given([matched, recorded(price(4.2))]).when(confirm(decidueye, 'user:u1', priced(price(5)))).then([confirmed(decidueye, 'user:u1', null), recorded(price(5))]);
    given([matched]).when(confirm(decidueye, 'user:u1', priced(price(4.2)))).then([confirmed(decidueye, 'user:u1', null), recorded(price(4.2))]);
  });

  it("validates the payload and the route's body", () => {
    expect(cardEventSchemas.CardIdentificationConfirmed.safeParse(confirmed(decidueye).data).success).toBe(true);
    expect(cardEventSchemas.CardIdentificationConfirmed.safeParse({ ...confirmed(decidueye).data, confirmedBy: 'u1' }).success).toBe(false);
    expect(cardEventSchemas.CardIdentificationConfirmed.safeParse({ ...confirmed(decidueye).data, card: { ...decidueye, catalogId: '' } }).success).toBe(false);
    expect(cardEventSchemas.CardIdentificationConfirmed.safeParse({ ...confirmed(decidueye).data, valueUnavailable: '' }).success).toBe(false);
    // A confirmation recorded before confirmations were priced has no reason, and still reads.
    expect(cardEventSchemas.CardIdentificationConfirmed.safeParse(confirmed(decidueye, 'user:u1', null).data).success).toBe(true);
    expect(cardEventSchemas.CardPriceRecorded.safeParse(recorded(price(4.2)).data).success).toBe(true);
    for (const graded of [{ ...byGrade(9_000), grades: [] }, { ...byGrade(9_000), currency: 'EUR' }, { ...byGrade(0) }, { ...byGrade(9_000), asOf: '4 March' }]) {
      expect(cardEventSchemas.CardPriceRecorded.safeParse({ ...recorded(price(4.2)).data, graded }).success, JSON.stringify(graded)).toBe(false);
    }
    expect(confirmIdentificationSchema.parse({ catalogId: ' sm1-12 ' })).toEqual({ catalogId: 'sm1-12' });
    expect(confirmIdentificationSchema.parse({ catalogId: 'swshp-SWSH050' }).catalogId).toBe('swshp-SWSH050');
    for (const catalogId of ['', 'sm1', 'sm1 12', 'x'.repeat(65), 12]) expect(confirmIdentificationSchema.safeParse({ catalogId }).success, JSON.stringify(catalogId)).toBe(false);
  });
});
