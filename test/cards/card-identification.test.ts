import { describe, expect, it } from 'vitest';
import { confirmIdentificationSchema } from '../../src/contracts/cards.ts';
import { cardDecider, cardEventSchemas, type CardDeleted, type CardGraded, type CardIdentificationConfirmed, type CardOwnerChanged, type ConfirmedCatalogCard } from '../../src/domain/cards/index.ts';
import { specify } from '../accounts/decider-spec.ts';
import { cardGradedData } from './graded-card-fixture.ts';

// Issue 32: the owner confirms which catalogue card it is (one of the candidates offered when identification was not
// sure), recorded on the card's stream with the catalogue's facts of it.

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
const confirm = (card: ConfirmedCatalogCard, requestedBy: Who = 'user:u1') => ({ type: 'ConfirmIdentification', data: { cardId, requestedBy, card, confirmedAt: at } }) as const;
const confirmed = (card: ConfirmedCatalogCard, confirmedBy: Who = 'user:u1'): CardIdentificationConfirmed => ({ type: 'CardIdentificationConfirmed', data: { cardId, card, confirmedBy, confirmedAt: at } });

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

  it("validates the payload and the route's body", () => {
    expect(cardEventSchemas.CardIdentificationConfirmed.safeParse(confirmed(decidueye).data).success).toBe(true);
    expect(cardEventSchemas.CardIdentificationConfirmed.safeParse({ ...confirmed(decidueye).data, confirmedBy: 'u1' }).success).toBe(false);
    expect(cardEventSchemas.CardIdentificationConfirmed.safeParse({ ...confirmed(decidueye).data, card: { ...decidueye, catalogId: '' } }).success).toBe(false);
    expect(confirmIdentificationSchema.parse({ catalogId: ' sm1-12 ' })).toEqual({ catalogId: 'sm1-12' });
    expect(confirmIdentificationSchema.parse({ catalogId: 'swshp-SWSH050' }).catalogId).toBe('swshp-SWSH050');
    for (const catalogId of ['', 'sm1', 'sm1 12', 'x'.repeat(65), 12]) expect(confirmIdentificationSchema.safeParse({ catalogId }).success, JSON.stringify(catalogId)).toBe(false);
  });
});
