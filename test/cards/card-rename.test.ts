import { describe, expect, it } from 'vitest';
import { identifiedCardName, UNKNOWN_CARD_NAME } from '../../src/contracts/grading.ts';
import { renameCardSchema } from '../../src/contracts/cards.ts';
import { cardDecider, cardEventSchemas, type CardDeleted, type CardGraded, type CardOwnerChanged, type CardRenamed } from '../../src/domain/cards/index.ts';
import { specify } from '../accounts/decider-spec.ts';
import { cardGradedData, gradedCard } from './graded-card-fixture.ts';

// Issue 35: a name is only what identification stands behind, and every card can be renamed by its owner.

const given = specify(cardDecider);
const graded: CardGraded = { type: 'CardGraded', data: cardGradedData() };
const cardId = graded.data.cardId;
const at = '2026-03-04T10:00:00.000Z';
const rename = (name: string, requestedBy: `user:${string}` | `guest:${string}` = 'user:u1') => ({ type: 'RenameCard', data: { cardId, requestedBy, name, renamedAt: at } }) as const;
const renamed = (name: string, renamedBy: `user:${string}` | `guest:${string}` = 'user:u1'): CardRenamed => ({ type: 'CardRenamed', data: { cardId, name, renamedBy, renamedAt: at } });

describe('renaming a card', () => {
  it("records the owner's name for the card", () => {
    given([graded]).when(rename('Dark Charizard')).then([renamed('Dark Charizard')]);
  });

  it('records nothing for the name the card already has: a rename sent twice is one rename', () => {
    given([graded, renamed('Dark Charizard')]).when(rename('Dark Charizard')).then([]);
    // An unidentified card is already "Unknown card".
    given([graded]).when(rename(UNKNOWN_CARD_NAME)).then([]);
  });

  it('renames again, and back', () => {
    given([graded, renamed('Dark Charizard')]).when(rename('Charizard')).then([renamed('Charizard')]);
  });

  it('lets a guest rename the card they keep in their browser, and the account it moved to after that', () => {
    const guestCard: CardGraded = { type: 'CardGraded', data: { ...graded.data, owner: 'guest:g1' } };
    given([guestCard]).when(rename('Pikachu', 'guest:g1')).then([renamed('Pikachu', 'guest:g1')]);
    const moved: CardOwnerChanged = { type: 'CardOwnerChanged', data: { cardId, from: 'guest:g1', to: 'user:u1', changedAt: at } };
    given([guestCard, moved]).when(rename('Pikachu')).then([renamed('Pikachu')]);
    given([guestCard, moved]).when(rename('Pikachu', 'guest:g1')).thenRefuses('card_not_found');
  });

  it('tells anyone but the owner the card does not exist, and has nothing to rename before a grade or after a delete', () => {
    const deleted: CardDeleted = { type: 'CardDeleted', data: { cardId, owner: 'user:u1', deletedAt: at } };
    given([graded]).when(rename('Mine now', 'user:u2')).thenRefuses('card_not_found');
    given([]).when(rename('Pikachu')).thenRefuses('card_not_found');
    given([graded, deleted]).when(rename('Pikachu')).thenRefuses('card_not_found');
  });

  it('validates the payload: one line of 1 to 100 characters, by an owner', () => {
    expect(cardEventSchemas.CardRenamed.safeParse(renamed('Pikachu').data).success).toBe(true);
    expect(cardEventSchemas.CardRenamed.safeParse({ ...renamed('').data }).success).toBe(false);
    expect(cardEventSchemas.CardRenamed.safeParse({ ...renamed('x'.repeat(101)).data }).success).toBe(false);
    expect(cardEventSchemas.CardRenamed.safeParse({ ...renamed('Pikachu').data, renamedBy: 'u1' }).success).toBe(false);
  });

  it("the route's rule: trimmed, 1 to 100 characters, one line, invisible formatting taken out", () => {
    expect(renameCardSchema.parse({ name: '  Pikachu  ' })).toEqual({ name: 'Pikachu' });
    expect(renameCardSchema.parse({ name: 'Pi\u200Bkachu' })).toEqual({ name: 'Pikachu' });
    expect(renameCardSchema.parse({ name: 'x'.repeat(100) }).name).toHaveLength(100);
    for (const name of ['', '   ', 'x'.repeat(101), 'Pika\nchu', 'Pika\u0000chu', 42]) expect(renameCardSchema.safeParse({ name }).success, JSON.stringify(name)).toBe(false);
    expect(renameCardSchema.safeParse({}).success).toBe(false);
  });
});

describe('the name identification stands behind', () => {
  it("is the catalogue's card or the vision model's answer; text OCR read but matched to nothing is not a name", () => {
    expect(identifiedCardName({ source: 'ocr', catalogId: 'base1-58', cardName: 'Pikachu' })).toBe('Pikachu');
    expect(identifiedCardName({ source: 'vision-model', catalogId: null, cardName: 'Zorblax' })).toBe('Zorblax');
    expect(identifiedCardName({ source: 'ocr', catalogId: null, cardName: 'Baby Pokemon counts ae' })).toBe(UNKNOWN_CARD_NAME);
    expect(identifiedCardName({ source: 'ocr', catalogId: null, cardName: 'JOU' })).toBe(UNKNOWN_CARD_NAME);
    expect(identifiedCardName({ source: 'none', catalogId: null, cardName: null })).toBe(UNKNOWN_CARD_NAME);
    // A name OCR read that the catalogue knows, which card bearing it unknown.
    expect(identifiedCardName({ source: 'ocr', catalogId: null, cardName: 'Pikachu', nameConfirmed: true })).toBe('Pikachu');
  });

  it('names a graded card so, and a card graded before the rule carries its stray text only in the record', () => {
    expect(gradedCard({ identification: { source: 'ocr', cardName: 'JOU', catalogId: null } }).cardName).toBe(UNKNOWN_CARD_NAME);
    // A stream from before the rule: its CardGraded says "JOU"; the card's name (the state every rename compares with) is unknown.
    const old = cardGradedData({ result: { ...gradedCard(), cardName: 'JOU', identification: { ...gradedCard().identification, source: 'ocr', cardName: 'JOU' } } });
    given([{ type: 'CardGraded', data: old }]).when(rename(UNKNOWN_CARD_NAME)).then([]);
    given([{ type: 'CardGraded', data: old }]).when(rename('JOU')).then([renamed('JOU')]);
  });
});
