import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CARD_ID_BYTES,
  cardDecider,
  cardEventSchemas,
  cardIdentityKey,
  cardIdSchema,
  knownPrice,
  priceFromText,
  type CardDeleted,
  type CardGraded,
  type CardIdentity,
  type CardOwnerChanged,
  type CardPriceRecorded,
  type CardSaved,
} from '../../src/domain/cards/index.ts';
import { specify } from '../accounts/decider-spec.ts';
import { cardGradedData, gradedCard, hash, unidentified } from './graded-card-fixture.ts';

const given = specify(cardDecider);

const graded: CardGraded = { type: 'CardGraded', data: cardGradedData() };
const deleted: CardDeleted = { type: 'CardDeleted', data: { cardId: graded.data.cardId, owner: 'user:u1', deletedAt: '2026-03-02T08:00:00.000Z' } };

const withEstimate = cardGradedData({
  result: gradedCard({
    identification: {
      source: 'vision-model',
      cardName: 'Charizard',
      model: 'gpt-4o-mini',
      estimatedValue: { text: '$1,250.00', label: 'Estimate by the vision model (gpt-4o-mini), not market data' },
    },
  }),
});

// Issue 18: grading is not saving. A grade recorded now says so (savedSeparately); one from before CardSaved existed
// (no flag) was saved as it was graded.
describe('saving a card', () => {
  const unsaved: CardGraded = { type: 'CardGraded', data: { ...graded.data, savedSeparately: true } };
  const save = (requestedBy: `user:${string}` | `guest:${string}`, sample = false) =>
    ({ type: 'SaveCard', data: { cardId: graded.data.cardId, requestedBy, sample, savedAt: '2026-03-03T00:00:00.000Z' } }) as const;
  const saved = (sample = false): CardSaved => ({ type: 'CardSaved', data: { cardId: graded.data.cardId, owner: 'user:u1', sample, savedAt: '2026-03-03T00:00:00.000Z' } });

  it('puts a graded card in its owner\'s collection', () => {
    given([unsaved]).when(save('user:u1')).then([saved()]);
  });

  it('marks a sample card as one', () => {
    given([unsaved]).when(save('user:u1', true)).then([saved(true)]);
  });

  it('is one card however often it is saved', () => {
    given([unsaved, saved()]).when(save('user:u1')).then([]);
    given([unsaved, saved()]).when(save('user:u1', true)).then([]);
  });

  it('takes a grade from before CardSaved existed as saved', () => {
    given([graded]).when(save('user:u1')).then([]);
  });

  it('tells anyone but the owner the card does not exist, and has nothing to save before a grade or after a delete', () => {
    given([unsaved]).when(save('user:u2')).thenRefuses('card_not_found');
    given([]).when(save('user:u1')).thenRefuses('card_not_found');
    given([unsaved, saved(), deleted]).when(save('user:u1')).thenRefuses('card_not_found');
  });

  it('saves again a card graded afresh after its delete', () => {
    given([unsaved, saved(), deleted, unsaved]).when(save('user:u1')).then([saved()]);
  });

  it('validates the payload', () => {
    expect(cardEventSchemas.CardSaved.safeParse({ ...saved().data, owner: 'u1' }).success).toBe(false);
    expect(cardEventSchemas.CardGraded.safeParse({ ...graded.data, savedSeparately: false }).success).toBe(false);
  });
});

describe('grading a card', () => {
  it('records the grade with everything the engine measured', () => {
    given([]).when({ type: 'GradeCard', data: graded.data }).then([graded]);
    expect(cardEventSchemas.CardGraded.parse(graded.data)).toEqual(graded.data);
    expect(graded.data.result.measurements.front.corners).toHaveLength(4);
  });

  it('records a price only where a named source gave one', () => {
    const price: CardPriceRecorded = {
      type: 'CardPriceRecorded',
      data: {
        cardId: withEstimate.cardId,
        priceDate: '2026-03-01',
        priceValue: 1250,
        source: 'Estimate by the vision model (gpt-4o-mini), not market data',
        grade: withEstimate.result.overallGrade,
        recordedAt: withEstimate.gradedAt,
      },
    };
    given([]).when({ type: 'GradeCard', data: withEstimate }).then([{ type: 'CardGraded', data: withEstimate }, price]);
    expect(withEstimate.result.estimatedValue).toBe('$1,250.00 (Estimate by the vision model (gpt-4o-mini), not market data)');
  });

  it('invents no price: an unidentified card shows N/A and records none', () => {
    expect(graded.data.result.estimatedValue).toBe('N/A');
    expect(graded.data.result.psa10Value).toBe('N/A');
    given([]).when({ type: 'GradeCard', data: graded.data }).then([graded]);
  });

  it('gives the same owner sending the same images the card already there', () => {
    given([graded]).when({ type: 'GradeCard', data: { ...graded.data, gradedAt: '2026-03-05T00:00:00.000Z' } }).then([]);
  });

  it('grades afresh a card its owner deleted', () => {
    given([graded, deleted]).when({ type: 'GradeCard', data: graded.data }).then([graded]);
  });

  it('refuses a guest whose card has moved to an account', () => {
    const moved: CardOwnerChanged = { type: 'CardOwnerChanged', data: { cardId: graded.data.cardId, from: 'guest:g1', to: 'user:u1', changedAt: 'T' } };
    given([{ type: 'CardGraded', data: { ...graded.data, owner: 'guest:g1' } }, moved])
      .when({ type: 'GradeCard', data: { ...graded.data, owner: 'guest:g1' } })
      .thenRefuses('card_owned_elsewhere');
  });

  it('validates payloads: owners, hashes', () => {
    expect(cardEventSchemas.CardGraded.safeParse({ ...graded.data, owner: 'admin:1' }).success).toBe(false);
    expect(cardEventSchemas.CardGraded.safeParse({ ...graded.data, owner: 'user:' }).success).toBe(false);
    expect(
      cardEventSchemas.CardGraded.safeParse({ ...graded.data, images: { front: { hash: '../etc/passwd', contentType: 'image/png', sourceUrl: null }, back: null } })
        .success,
    ).toBe(false);
  });
});

describe('deleting a card', () => {
  const byOwner = { cardId: graded.data.cardId, requestedBy: 'user:u1', deletedAt: '2026-03-02T08:00:00.000Z' } as const;

  it('lets the owner delete it', () => {
    given([graded]).when({ type: 'DeleteCard', data: byOwner }).then([deleted]);
  });

  it('answers a retried delete by its owner with nothing to do', () => {
    given([graded, deleted]).when({ type: 'DeleteCard', data: byOwner }).then([]);
  });

  it('tells anyone else the card does not exist, exactly as for an unknown id', () => {
    given([graded]).when({ type: 'DeleteCard', data: { ...byOwner, requestedBy: 'user:u2' } }).thenRefuses('card_not_found');
    given([graded]).when({ type: 'DeleteCard', data: { ...byOwner, requestedBy: 'guest:u1' } }).thenRefuses('card_not_found');
    given([graded, deleted]).when({ type: 'DeleteCard', data: { ...byOwner, requestedBy: 'user:u2' } }).thenRefuses('card_not_found');
    given([]).when({ type: 'DeleteCard', data: byOwner }).thenRefuses('card_not_found');
  });

  it('refuses with a 404, not a 403', () => {
    expect(() => cardDecider.decide({ type: 'DeleteCard', data: { ...byOwner, requestedBy: 'user:u2' } }, cardDecider.evolve(cardDecider.initialState(), graded))).toThrow(
      expect.objectContaining({ kind: 'not_found', message: 'Card not found' }),
    );
  });
});

describe('claiming a guest card', () => {
  const guestCard: CardGraded = { type: 'CardGraded', data: { ...graded.data, owner: 'guest:g1' } };
  const claim = { cardId: graded.data.cardId, guest: 'guest:g1', user: 'user:u1', claimedAt: '2026-03-03T09:00:00.000Z' } as const;
  const moved: CardOwnerChanged = { type: 'CardOwnerChanged', data: { cardId: claim.cardId, from: 'guest:g1', to: 'user:u1', changedAt: claim.claimedAt } };

  it('moves the card to the account', () => {
    given([guestCard]).when({ type: 'ClaimGuestCard', data: claim }).then([moved]);
  });

  it('is idempotent, and the new owner then owns it', () => {
    given([guestCard, moved]).when({ type: 'ClaimGuestCard', data: claim }).then([]);
    given([guestCard, moved]).when({ type: 'DeleteCard', data: { cardId: claim.cardId, requestedBy: 'user:u1', deletedAt: 'T' } }).then([
      { type: 'CardDeleted', data: { cardId: claim.cardId, owner: 'user:u1', deletedAt: 'T' } },
    ]);
    given([guestCard, moved]).when({ type: 'DeleteCard', data: { cardId: claim.cardId, requestedBy: 'guest:g1', deletedAt: 'T' } }).thenRefuses('card_not_found');
  });

  it('leaves a deleted guest card where it is', () => {
    given([guestCard, { type: 'CardDeleted', data: { cardId: claim.cardId, owner: 'guest:g1', deletedAt: 'T' } }]).when({ type: 'ClaimGuestCard', data: claim }).then([]);
  });

  it("never takes another guest's card", () => {
    given([{ type: 'CardGraded', data: { ...graded.data, owner: 'guest:g2' } }]).when({ type: 'ClaimGuestCard', data: claim }).thenRefuses('card_not_found');
    given([]).when({ type: 'ClaimGuestCard', data: claim }).thenRefuses('card_not_found');
  });

  it('only moves from a guest to an account', () => {
    given([graded]).when({ type: 'ClaimGuestCard', data: { ...claim, guest: 'user:u1', user: 'user:u2' } }).thenRefuses('card_claim_invalid');
  });
});

describe("expiring a guest's card (DESIGN.md §6: 7 days)", () => {
  const guestCard: CardGraded = { type: 'CardGraded', data: { ...graded.data, owner: 'guest:g1' } };
  const expire = { cardId: graded.data.cardId, guest: 'guest:g1', expiredAt: '2026-03-09T00:00:00.000Z' } as const;
  const gone: CardDeleted = { type: 'CardDeleted', data: { cardId: expire.cardId, owner: 'guest:g1', deletedAt: expire.expiredAt } };

  it('deletes the guest card like its owner would', () => {
    given([guestCard]).when({ type: 'ExpireGuestCard', data: expire }).then([gone]);
  });

  it('leaves a card claimed by an account, one already gone, and an unknown id alone', () => {
    const moved: CardOwnerChanged = { type: 'CardOwnerChanged', data: { cardId: expire.cardId, from: 'guest:g1', to: 'user:u1', changedAt: 'T' } };
    given([guestCard, moved]).when({ type: 'ExpireGuestCard', data: expire }).then([]);
    given([guestCard, gone]).when({ type: 'ExpireGuestCard', data: expire }).then([]);
    given([]).when({ type: 'ExpireGuestCard', data: expire }).then([]);
    given([{ type: 'CardGraded', data: { ...graded.data, owner: 'guest:g2' } }]).when({ type: 'ExpireGuestCard', data: expire }).then([]);
  });

  it("never expires an account's card", () => {
    given([graded]).when({ type: 'ExpireGuestCard', data: { ...expire, guest: 'user:u1' } }).thenRefuses('card_expiry_invalid');
  });
});

describe('card ids', () => {
  // What the command layer does with the key.
  const cardId = (key: string, secret = 'server secret') => createHmac('sha256', secret).update(key).digest().subarray(0, CARD_ID_BYTES).toString('base64url');

  it('are the same for the same owner and images, and differ when any of them differs', () => {
    const base: CardIdentity = { owner: 'user:u1', frontImageHash: hash(1), backImageHash: hash(2) };
    const identities: CardIdentity[] = [
      base,
      { ...base, owner: 'user:u2' },
      { ...base, owner: 'guest:u1' },
      { ...base, frontImageHash: hash(3) },
      { ...base, backImageHash: null },
      { ...base, frontImageHash: hash(2), backImageHash: hash(1) },
    ];
    const keys = identities.map((identity) => cardIdentityKey(identity));
    expect(cardIdentityKey({ ...base })).toBe(keys[0]);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('are 22 url-safe characters that only the server can compute', () => {
    const key = cardIdentityKey({ owner: 'user:u1', frontImageHash: hash(1), backImageHash: null });
    expect(cardIdSchema.safeParse(cardId(key)).success).toBe(true);
    expect(cardId(key)).not.toBe(cardId(key, 'another secret'));
    for (const hostile of ['', '../card', 'a'.repeat(21), 'a'.repeat(23), `${'a'.repeat(21)}/`]) expect(cardIdSchema.safeParse(hostile).success).toBe(false);
  });
});

describe('prices', () => {
  it.each([
    ['$12.50', 12.5],
    ['$1,234.56 (Estimate by the vision model)', 1234.56],
    ['45 USD', 45],
    ['$0', 0],
    ['N/A', null],
    ['$30-$50', null],
    ['USD 12', null],
    ['about $12', null],
    ['', null],
    [null, null],
  ])('%s is worth %s', (text, price) => {
    expect(priceFromText(text)).toBe(price);
  });

  it('are known only from a labelled estimate', () => {
    expect(knownPrice(unidentified)).toBeNull();
    expect(knownPrice({ ...unidentified, estimatedValue: { text: 'unknown', label: 'Vision model' } })).toBeNull();
    expect(knownPrice({ ...unidentified, estimatedValue: { text: '$9.99', label: 'Vision model estimate' } })).toEqual({ priceValue: 9.99, source: 'Vision model estimate' });
  });
});

// Issue 33: `npm run regrade` records a newer engine's grade beside the old one, once per engine.
describe('regrading a card', () => {
  const newer = { vision: 'newer-vision', calibration: 'newer-calibration' };
  const newGrade = gradedCard({ front: { centering: { horizontal: 62, vertical: 50 } } });
  const regrade = (engine = newer) => ({ type: 'RegradeCard', data: { cardId: graded.data.cardId, grade: newGrade, engine, regradedAt: '2026-11-27T00:00:00.000Z' } }) as const;
  const regraded = {
    type: 'CardRegraded',
    data: { cardId: graded.data.cardId, grade: newGrade, engine: newer, previous: { overallGrade: graded.data.result.overallGrade, engine: graded.data.engine }, regradedAt: '2026-11-27T00:00:00.000Z' },
  } as const;

  it('records the new grade with its engine, naming the grade and engine it follows', () => {
    given([graded]).when(regrade()).then([regraded]);
  });

  it('records nothing for an engine that already graded the card: its grading, or a regrade', () => {
    given([graded]).when(regrade(graded.data.engine)).then([]);
    given([graded, regraded]).when(regrade()).then([]);
  });

  it('regrades a card again when a still newer engine comes, following the latest grade', () => {
    const newest = { vision: 'newest', calibration: 'newest' };
    given([graded, regraded])
      .when(regrade(newest))
      .then([{ type: 'CardRegraded', data: { ...regraded.data, engine: newest, previous: { overallGrade: newGrade.overallGrade, engine: newer } } }]);
  });

  it('leaves a deleted card alone', () => {
    given([graded, deleted]).when(regrade()).then([]);
  });

  it('has later professional reports compared with the newest engine\'s estimate', () => {
    const state = [graded, regraded].reduce(cardDecider.evolve, cardDecider.initialState());
    expect(state.status === 'graded' && state.estimate).toMatchObject({ overallGrade: newGrade.overallGrade, engine: newer });
  });
});
