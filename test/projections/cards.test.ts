import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReplayCommand } from '../../scripts/replay.ts';
import type { CardEvent, CardGraded } from '../../src/domain/cards/index.ts';
import * as cardResultFromEvent from '../../src/infra/database/migrations/0013-card-result-from-event.ts';
import { createEventStore, type EventMetadata, type EventStore } from '../../src/infra/event-store/index.ts';
import { achievementsOf } from '../../src/projections/achievements/queries.ts';
import { cardsProjection } from '../../src/projections/cards/cards-projection.ts';
import { cardResultView, collectionOf, findCard, priceHistoryOf } from '../../src/projections/cards/queries.ts';
import { inlineProjections } from '../../src/projections/index.ts';
import { topGraders } from '../../src/projections/leaderboard/queries.ts';
import { rebuildProjection, rebuildProjections } from '../../src/projections/runner/index.ts';
import { cardGradedData, gradedCard, hash } from '../cards/graded-card-fixture.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/database.ts';
import { catchUpAsyncProjections, everyProjection } from './every-read-model.ts';

// The card read models from events appended straight to the log: card_grades and price_history (inline),
// the leaderboard and achievements (async, driven to catch up), rebuilds equal row for row, and replay.

const metadata: EventMetadata = { actor: { kind: 'system', id: 'test' }, commandId: 'c', timestamp: '2026-03-01T12:00:00.000Z' };

describe.each(await databaseKinds())('card projections on %s', (kind) => {
  let database: TestDatabase;
  let store: EventStore;
  let cardNumber = 0;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    store = createEventStore(database, { inline: inlineProjections });
  });
  afterAll(async () => {
    await database?.destroy();
  });

  const catchUp = () => catchUpAsyncProjections(database, store);

  const append = (cardId: string, events: CardEvent[]) => store.append(`card-${cardId}`, 'card', events.map((e) => ({ ...e, metadata })), { expected: 'any' });

  async function registerUser(username: string): Promise<string> {
    const userId = randomUUID();
    await store.append(
      `user-${userId}`,
      'user',
      [
        {
          type: 'UserRegistered',
          data: {
            userId,
            username,
            email: `${username}@example.com`,
            passwordHash: '$argon2id$test',
            firstName: null,
            lastName: null,
            phone: null,
            marketingNotificationsEnabled: false,
            providerUserId: userId,
            providerToken: 'built-in',
            registeredAt: metadata.timestamp,
          },
          metadata,
        },
      ],
      { expected: 'no_stream' },
    );
    return userId;
  }

  async function grade(owner: CardGraded['data']['owner'], overrides: Partial<CardGraded['data']> = {}): Promise<string> {
    const cardId = `card${String(++cardNumber).padStart(18, '0')}`;
    await append(cardId, [{ type: 'CardGraded', data: cardGradedData({ cardId, owner, images: { front: { hash: hash(cardNumber), contentType: 'image/jpeg', sourceUrl: null }, back: null }, ...overrides }) }]);
    return cardId;
  }

  describe('card_grades and price_history (inline)', () => {
    it('writes SPEC.md §3\'s row and the engine\'s whole result in the append\'s transaction', async () => {
      const result = gradedCard({ front: { corners: { topLeft: 1 } }, identification: { cardName: 'Pikachu', cardSet: 'Base Set', cardNumber: '58/102', rarity: 'Common' } });
      const cardId = await grade('user:00000000-0000-4000-8000-000000000001', { result, cardType: 'pokemon', gradedAt: '2026-03-02T10:00:00.000Z' });
      const row = await findCard(database.db, cardId);
      expect(row).toMatchObject({
        id: cardId,
        owner: 'user:00000000-0000-4000-8000-000000000001',
        user_id: '00000000-0000-4000-8000-000000000001',
        card_name: 'Pikachu',
        card_set: 'Base Set',
        card_number: '58/102',
        card_type: 'pokemon',
        rarity: 'Common',
        grades: result.grades,
        overall_grade: result.overallGrade,
        estimated_value: 'N/A',
        image_url: `/api/images/${hash(cardNumber)}`,
        back_image_url: null,
        annotated_front_hash: hash(2),
        result,
      });
      expect(row!.created_at.toISOString()).toBe('2026-03-02T10:00:00.000Z');
    });

    it('records prices, moves a claimed card, and forgets a deleted one', async () => {
      const guest = 'guest:7a0e5f3c-1111-4000-8000-000000000000' as const;
      const user = 'user:00000000-0000-4000-8000-000000000002' as const;
      const cardId = await grade(guest);
      await append(cardId, [
        { type: 'CardPriceRecorded', data: { cardId, priceDate: '2026-03-01', priceValue: 12.5, source: 'Estimate by the vision model (test), not market data', grade: 9.5, recordedAt: metadata.timestamp } },
      ]);
      expect(await priceHistoryOf(database.db, cardId)).toEqual([
        expect.objectContaining({ cardGradeId: cardId, priceDate: '2026-03-01', priceValue: 12.5, grade: 9.5 }),
      ]);
      expect((await collectionOf(database.db, guest)).map((c) => c.id)).toEqual([cardId]);

      await append(cardId, [{ type: 'CardOwnerChanged', data: { cardId, from: guest, to: user, changedAt: metadata.timestamp } }]);
      expect(await collectionOf(database.db, guest)).toEqual([]);
      expect(await collectionOf(database.db, user)).toEqual([expect.objectContaining({ id: cardId, userId: '00000000-0000-4000-8000-000000000002' })]);

      await append(cardId, [{ type: 'CardDeleted', data: { cardId, owner: user, deletedAt: metadata.timestamp } }]);
      expect(await findCard(database.db, cardId)).toBeUndefined();
      expect(await priceHistoryOf(database.db, cardId)).toEqual([]);
    });
  });

  describe('leaderboard (async)', () => {
    it('ranks the top ten users by cards in their collection; guests are not ranked', async () => {
      // Twelve users with 1..12 cards, two of them tied; and a guest with more cards than anyone.
      const users: string[] = [];
      for (let n = 1; n <= 12; n++) users.push(await registerUser(`ranked-${kind}-${String(n).padStart(2, '0')}`));
      for (const [index, userId] of users.entries()) {
        const count = index === 11 ? 11 : index + 1; // the 12th ties with the 11th
        for (let c = 0; c < count; c++) await grade(`user:${userId}`);
      }
      for (let c = 0; c < 20; c++) await grade('guest:00000000-0000-4000-8000-0000000000aa');
      await catchUp();
      const top = await topGraders(database.db);
      expect(top).toHaveLength(10);
      expect(top.slice(0, 3)).toEqual([
        { id: users[10], username: `ranked-${kind}-11`, cardCount: 11 },
        { id: users[11], username: `ranked-${kind}-12`, cardCount: 11 },
        { id: users[9], username: `ranked-${kind}-10`, cardCount: 10 },
      ]);
      expect(top.at(-1)!.cardCount).toBe(3);
    });

    it('counts deletes and guests\' cards claimed at sign-in', async () => {
      const userId = await registerUser(`mover-${kind}`);
      const guest = 'guest:00000000-0000-4000-8000-0000000000bb' as const;
      const kept = await grade(`user:${userId}`);
      const removed = await grade(`user:${userId}`);
      const claimed = await grade(guest);
      await append(removed, [{ type: 'CardDeleted', data: { cardId: removed, owner: `user:${userId}`, deletedAt: metadata.timestamp } }]);
      await append(claimed, [{ type: 'CardOwnerChanged', data: { cardId: claimed, from: guest, to: `user:${userId}`, changedAt: metadata.timestamp } }]);
      await catchUp();
      const row = await database.db.selectFrom('leaderboard').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
      expect(row).toEqual({ user_id: userId, username: `mover-${kind}`, card_count: 2, listed: true });
      expect(kept).toBeDefined();
    });
  });

  describe('achievements (async)', () => {
    it('earns from the catalogue: first grade, a gem, a perfect ten, both sides, dead center', async () => {
      const userId = await registerUser(`achiever-${kind}`);
      await grade(`user:${userId}`, { gradedAt: '2026-03-03T09:00:00.000Z' });
      await catchUp();
      const earned = await achievementsOf(database.db, userId);
      expect(earned.map((a) => a.name)).toEqual(['First Grade', 'Gem Hunter', 'Perfect Ten', 'Dead Center']);
      expect(earned[0]).toEqual({
        achievementId: 1,
        name: 'First Grade',
        description: 'Grade your first card.',
        level: 'bronze',
        notificationShown: false,
        earnedAt: '2026-03-03T09:00:00.000Z',
      });
    });

    it('counts a card once however often it is graded again, and a claimed guest card for its new owner', async () => {
      const userId = await registerUser(`collector-${kind}`);
      const owner = `user:${userId}` as const;
      const worn = gradedCard({ front: { centering: { horizontal: 60, vertical: 55 }, corners: { topLeft: 2, topRight: 2 } } });
      const again = await grade(owner, { result: worn });
      for (let round = 0; round < 9; round++) {
        await append(again, [{ type: 'CardDeleted', data: { cardId: again, owner, deletedAt: metadata.timestamp } }]);
        await append(again, [{ type: 'CardGraded', data: cardGradedData({ cardId: again, owner, result: worn }) }]);
      }
      await catchUp();
      expect((await achievementsOf(database.db, userId)).map((a) => a.achievementId)).toEqual([1]);

      const guest = 'guest:00000000-0000-4000-8000-0000000000cc' as const;
      const guestCards: string[] = [];
      for (let c = 0; c < 9; c++) guestCards.push(await grade(guest, { result: worn }));
      await catchUp();
      expect((await achievementsOf(database.db, userId)).map((a) => a.achievementId)).toEqual([1]);
      for (const cardId of guestCards) {
        await append(cardId, [{ type: 'CardOwnerChanged', data: { cardId, from: guest, to: owner, changedAt: '2026-03-04T08:00:00.000Z' } }]);
      }
      await catchUp();
      const earned = await achievementsOf(database.db, userId);
      expect(earned.map((a) => a.achievementId)).toEqual([1, 2]);
      expect(earned[1]!.earnedAt).toBe('2026-03-04T08:00:00.000Z');
    });

    it('marks a notification shown at once (inline) and in user_achievements once the runner has caught up', async () => {
      const userId = await registerUser(`notified-${kind}`);
      await grade(`user:${userId}`);
      await catchUp();
      await store.append(`achievements-${userId}`, 'achievements', [{ type: 'AchievementNotificationShown', data: { userId, achievementId: 1, shownAt: metadata.timestamp }, metadata }], {
        expected: 'no_stream',
      });
      expect((await achievementsOf(database.db, userId)).find((a) => a.achievementId === 1)?.notificationShown).toBe(true);
      await catchUp();
      const row = await database.db.selectFrom('user_achievements').select('notification_shown').where('id', '=', `${userId}:1`).executeTakeFirstOrThrow();
      expect(row.notification_shown).toBe(true);
    });
  });

  describe('grading apart from saving (issue 18)', () => {
    const save = (cardId: string, owner: CardGraded['data']['owner'], sample = false) =>
      append(cardId, [{ type: 'CardSaved', data: { cardId, owner, sample, savedAt: '2026-03-06T10:00:00.000Z' } }]);
    const gradeOnly = (owner: CardGraded['data']['owner'], front = hash(++cardNumber + 5000)) =>
      grade(owner, { savedSeparately: true, images: { front: { hash: front, contentType: 'image/jpeg', sourceUrl: null }, back: null } });

    it('puts saved cards in the collection, samples marked; ranks and rewards saved cards of the user\'s own, a photo once', async () => {
      const userId = await registerUser(`saver-${kind}`);
      const owner = `user:${userId}` as const;
      const unsaved = await gradeOnly(owner);
      const photo = hash(++cardNumber + 5000);
      const mine = await gradeOnly(owner, photo);
      const samePhoto = await gradeOnly(owner, photo); // the same front with another back: another card, the same photo
      const sample = await gradeOnly(owner);
      await save(mine, owner);
      await save(samePhoto, owner);
      await save(sample, owner, true);

      // Inline: the collection has the saved cards, the unsaved grade still answers its /card/{id}.
      const collection = await collectionOf(database.db, owner);
      expect(collection.map((c) => [c.id, c.sample]).sort()).toEqual([[mine, false], [samePhoto, false], [sample, true]].sort());
      expect(await findCard(database.db, unsaved)).toMatchObject({ id: unsaved, saved_at: null });

      await catchUp();
      const row = await database.db.selectFrom('leaderboard').select('card_count').where('user_id', '=', userId).executeTakeFirstOrThrow();
      expect(row.card_count).toBe(1);
      expect((await achievementsOf(database.db, userId)).map((a) => a.name)).toEqual(['First Grade', 'Gem Hunter', 'Perfect Ten', 'Dead Center']);
      const stats = await database.db.selectFrom('achievement_stats').select('stats').where('user_id', '=', userId).executeTakeFirstOrThrow();
      expect(stats.stats.cardsGraded).toBe(1);
    });

    it('gives an account of unsaved grades and samples no leaderboard place and no achievement, and a claimed guest card counts once saved', async () => {
      const userId = await registerUser(`sampler-${kind}`);
      const owner = `user:${userId}` as const;
      await gradeOnly(owner);
      for (let n = 0; n < 5; n++) await save(await gradeOnly(owner), owner, true);
      const guest = 'guest:00000000-0000-4000-8000-0000000000dd' as const;
      const guestUnsaved = await gradeOnly(guest);
      const guestSaved = await gradeOnly(guest);
      await save(guestSaved, guest);
      await catchUp();
      expect((await topGraders(database.db, 1000)).find((entry) => entry.id === userId)).toBeUndefined();
      expect(await achievementsOf(database.db, userId)).toEqual([]);
      expect(await collectionOf(database.db, owner)).toHaveLength(5);

      for (const cardId of [guestUnsaved, guestSaved]) {
        await append(cardId, [{ type: 'CardOwnerChanged', data: { cardId, from: guest, to: owner, changedAt: '2026-03-07T08:00:00.000Z' } }]);
      }
      await catchUp();
      expect((await topGraders(database.db, 1000)).find((entry) => entry.id === userId)?.cardCount).toBe(1);
      expect((await achievementsOf(database.db, userId)).map((a) => a.earnedAt)).toEqual(Array(4).fill('2026-03-07T08:00:00.000Z'));
      expect((await collectionOf(database.db, owner)).map((c) => c.id)).toContain(guestSaved);
      expect((await collectionOf(database.db, owner)).map((c) => c.id)).not.toContain(guestUnsaved);
    });
  });

  describe('rebuild', () => {
    const dump = async (table: string, keys: string[]) =>
      (await sql<Record<string, unknown>>`select * from ${sql.id(table)} order by ${sql.join(keys.map((k) => sql.id(k)))}`.execute(database.db)).rows;

    it('gives equal rows, row for row, for every card projection', async () => {
      // Some traffic of every kind first: two-sided cards, prices, a delete and a claim.
      const userId = await registerUser(`rebuilt-${kind}`);
      const twoSided = await grade(`user:${userId}`, {
        images: { front: { hash: hash(900), contentType: 'image/jpeg', sourceUrl: 'https://example.com/front.jpg' }, back: { hash: hash(901), contentType: 'image/png', sourceUrl: null } },
        annotatedImages: { front: hash(902), back: hash(903) },
        result: gradedCard({ back: { corners: { bottomLeft: 0.5 } } }),
      });
      await append(twoSided, [{ type: 'CardPriceRecorded', data: { cardId: twoSided, priceDate: '2026-03-05', priceValue: 3, source: 'test', grade: 9, recordedAt: metadata.timestamp } }]);
      await catchUp();

      const tables: Record<string, string[]> = {
        card_grades: ['id'],
        price_history: ['id'],
        card_collections: ['owner'],
        leaderboard: ['user_id'],
        leaderboard_cards: ['card_id'],
        user_achievements: ['id'],
        achievement_stats: ['user_id'],
        achievement_card_facts: ['card_id'],
        achievement_counted_cards: ['user_id', 'card_id'],
        achievement_notifications_shown: ['user_id', 'achievement_id'],
        users: ['id'],
      };
      const before = Object.fromEntries(await Promise.all(Object.entries(tables).map(async ([t, k]) => [t, await dump(t, k)] as const)));
      expect(before.card_grades!.length).toBeGreaterThan(50);

      // Each projection on its own, then all of them in one read of the log.
      const projections = everyProjection;
      for (const { projection, kind: projectionKind } of projections) {
        await rebuildProjection(database, store, projection, projectionKind, { batchSize: 37 });
      }
      for (const [table, key] of Object.entries(tables)) expect({ table, rows: await dump(table, key) }).toEqual({ table, rows: before[table] });
      await rebuildProjections(database, store, projections, { batchSize: 37 });
      for (const [table, key] of Object.entries(tables)) expect({ table, rows: await dump(table, key) }).toEqual({ table, rows: before[table] });
    });
  });

  describe('names (issue 35)', () => {
    const nameOf = async (cardId: string) => (await findCard(database.db, cardId))!;
    const collectionVersion = async (owner: string) =>
      (await database.db.selectFrom('card_collections').select('version').where('owner', '=', owner).executeTakeFirst())?.version;

    it("shows what identification stands behind, the owner's rename everywhere the row is read, and the same after a rebuild", async () => {
      const owner = `user:${await registerUser(`named-${kind}`)}` as const;
      // A card graded before the rule: OCR's stray print in its result, matched to no card.
      const stray = gradedCard();
      const strayCard = await grade(owner, { result: { ...stray, cardName: 'Baby Pokemon counts ae', identification: { ...stray.identification, source: 'ocr', cardName: 'Baby Pokemon counts ae' } } });
      const matched = await grade(owner, { result: gradedCard({ identification: { source: 'ocr', cardName: 'Pikachu', catalogId: 'base1-58', catalogConfidence: 0.97 } }) });
      expect((await nameOf(strayCard)).card_name).toBe('Unknown card');
      expect((await nameOf(strayCard)).result.cardName).toBe('Unknown card');
      expect((await nameOf(matched)).card_name).toBe('Pikachu');

      const before = await collectionVersion(owner);
      await append(strayCard, [{ type: 'CardRenamed', data: { cardId: strayCard, name: 'Cleffa', renamedBy: owner, renamedAt: metadata.timestamp } }]);
      const renamed = await nameOf(strayCard);
      expect(renamed.card_name).toBe('Cleffa');
      expect(cardResultView(renamed).cardName).toBe('Cleffa');
      expect((await collectionOf(database.db, owner)).find((card) => card.id === strayCard)?.cardName).toBe('Cleffa');
      // The collection's version moves, so a browser's cached collection is not served stale.
      expect(Number(await collectionVersion(owner))).toBeGreaterThan(Number(before));

      const rows = async () => (await sql<Record<string, unknown>>`select * from card_grades where id in (${strayCard}, ${matched}) order by id`.execute(database.db)).rows;
      const live = await rows();
      await rebuildProjection(database, store, cardsProjection, 'inline', { batchSize: 5 });
      expect(await rows()).toEqual(live);
    });
  });

  describe('the result, read from the CardGraded event (migration 0013)', () => {
    const recordPrice = (cardId: string, priceValue: number) =>
      append(cardId, [{ type: 'CardPriceRecorded', data: { cardId, priceDate: '2026-03-08', priceValue, source: 'TCGplayer market, Near Mint', grade: 9, recordedAt: metadata.timestamp } }]);
    const shownResult = async (cardId: string) => JSON.stringify(cardResultView((await findCard(database.db, cardId))!));

    it('is the graded result with the last recorded price in place of its estimate, the same after a rebuild', async () => {
      const owner = `user:${await registerUser(`priced-${kind}`)}` as const;
      const estimate = { text: '$3.00', label: 'Estimate by the vision model (test), not market data' };
      const result = gradedCard({ back: { corners: { topRight: 0.4 } }, identification: { estimatedValue: estimate } });
      const cardId = await grade(owner, { result });
      const row = (await findCard(database.db, cardId))!;
      expect(row.result).toEqual(result);
      expect(row.result.estimatedValue).toBe('$3.00 (Estimate by the vision model (test), not market data)');
      expect(row.recorded_estimate).toBeNull();

      await recordPrice(cardId, 12.5);
      const recorded = { text: '$12.50', label: 'TCGplayer market, Near Mint' };
      const priced = (await findCard(database.db, cardId))!;
      expect(priced.result).toEqual({ ...result, estimatedValue: '$12.50 (TCGplayer market, Near Mint)', identification: { ...result.identification, estimatedValue: recorded } });
      expect(priced.result.measurements).toEqual(result.measurements);
      expect(priced).toMatchObject({ estimated_value: '$12.50 (TCGplayer market, Near Mint)', recorded_estimate: recorded });

      const shown = await shownResult(cardId);
      await rebuildProjection(database, store, cardsProjection, 'inline', { batchSize: 7 });
      expect(await shownResult(cardId)).toBe(shown);
      await rebuildProjections(database, store, [...inlineProjections.map((projection) => ({ projection, kind: 'inline' as const }))]);
      expect(await shownResult(cardId)).toBe(shown);

      // Graded again after a delete: the new grade's result, its own estimate.
      await append(cardId, [{ type: 'CardDeleted', data: { cardId, owner, deletedAt: metadata.timestamp } }]);
      const regraded = gradedCard({ front: { corners: { topLeft: 1 } } });
      await append(cardId, [{ type: 'CardGraded', data: cardGradedData({ cardId, owner, result: regraded }) }]);
      expect((await findCard(database.db, cardId))!.result).toEqual(regraded);
    });

    it('shows the confirmed card\'s own value: N/A with the reason it has none, then its price recorded after; the same after a rebuild', async () => {
      const owner = `user:${await registerUser(`confirmed-${kind}`)}` as const;
      const result = gradedCard({ identification: { source: 'ocr', cardName: 'Servine', catalogId: 'bw7-12', catalogConfidence: 0.5 } });
      const cardId = await grade(owner, { result });
      await recordPrice(cardId, 2);
      const decidueye = {
        catalogId: 'sm1-12', cardName: 'Decidueye-GX', cardSet: 'Sun & Moon', cardNumber: '12/149', cardYear: '2017', rarity: null,
        cardFacts: 'Stage 2 GX Pokémon.', setDescription: 'Sun & Moon, 2017.',
      };
      await append(cardId, [{ type: 'CardIdentificationConfirmed', data: { cardId, card: decidueye, confirmedBy: owner, confirmedAt: metadata.timestamp, valueUnavailable: 'PriceCharting could not be reached' } }]);
      const missing = (await findCard(database.db, cardId))!;
      expect(missing.estimated_value).toBe('N/A (no market price: PriceCharting could not be reached)');
      expect(missing.result.identification.estimatedValue).toEqual({ text: 'N/A', label: 'no market price: PriceCharting could not be reached' });

      const graded = { source: 'PriceCharting', currency: 'USD' as const, asOf: '2026-03-08', product: 'Decidueye GX #12', grades: [{ label: 'PSA 10', grade: 10, cents: 9_000 }] };
      await append(cardId, [{ type: 'CardPriceRecorded', data: { cardId, priceDate: '2026-03-08', priceValue: 4.2, source: 'PriceCharting ungraded, 2026-03-08', grade: 9, recordedAt: metadata.timestamp, graded } }]);
      const priced = (await findCard(database.db, cardId))!;
      expect(priced.result).toMatchObject({ cardName: 'Decidueye-GX', cardSet: 'Sun & Moon', estimatedValue: '$4.20 (PriceCharting ungraded, 2026-03-08)' });
      expect(priced.result.identification).toMatchObject({ catalogId: 'sm1-12', confirmedByOwner: true, estimatedValue: { text: '$4.20', label: 'PriceCharting ungraded, 2026-03-08' } });
      expect((await priceHistoryOf(database.db, cardId)).map((entry) => [entry.priceValue, entry.graded])).toEqual([[2, null], [4.2, graded]]);

      const shown = await shownResult(cardId);
      const history = await priceHistoryOf(database.db, cardId);
      await rebuildProjection(database, store, cardsProjection, 'inline', { batchSize: 3 });
      expect(await shownResult(cardId)).toBe(shown);
      expect(await priceHistoryOf(database.db, cardId)).toEqual(history);
    });

    it('carries the rows written before it: each names its card\'s last CardGraded and keeps a recorded price', async () => {
      const owner = `user:${await registerUser(`migrated-${kind}`)}` as const;
      const plain = await grade(owner, { result: gradedCard({ back: { corners: { topRight: 0.4 } } }) });
      const priced = await grade(owner);
      await recordPrice(priced, 7);
      const regraded = await grade(owner);
      await recordPrice(regraded, 9);
      await append(regraded, [{ type: 'CardDeleted', data: { cardId: regraded, owner, deletedAt: metadata.timestamp } }]);
      await append(regraded, [{ type: 'CardGraded', data: cardGradedData({ cardId: regraded, owner, result: gradedCard({ front: { corners: { topLeft: 1 } } }) }) }]);
      await recordPrice(regraded, 11);
      const cards = [plain, priced, regraded];
      const before = await Promise.all(cards.map((cardId) => findCard(database.db, cardId)));
      const shownBefore = await Promise.all(cards.map(shownResult));

      const db = database.db as unknown as Kysely<unknown>;
      await cardResultFromEvent.down(db);
      const restored = await sql<{ id: string; result: unknown }>`select id, result from card_grades where id in (${sql.join(cards)})`.execute(db);
      for (const card of before) expect(restored.rows.find((row) => row.id === card!.id)!.result).toEqual(card!.result);
      // As the cards projection wrote them before 0013: the shown result in the row, as its JSON text.
      for (const card of before) await sql`update card_grades set result = ${JSON.stringify(card!.result)}::json where id = ${card!.id}`.execute(db);

      await cardResultFromEvent.up(db);
      expect(await Promise.all(cards.map((cardId) => findCard(database.db, cardId)))).toEqual(before);
      expect(await Promise.all(cards.map(shownResult))).toEqual(shownBefore);
      expect(before.map((card) => card!.recorded_estimate?.text ?? null)).toEqual([null, '$7.00', '$11.00']);
    });
  });

  describe('npm run replay -- card <id>', () => {
    it('prints the card\'s grades and prices from its stream, one JSON object per line', async () => {
      const cardId = await grade('user:00000000-0000-4000-8000-000000000003');
      await append(cardId, [{ type: 'CardPriceRecorded', data: { cardId, priceDate: '2026-03-06', priceValue: 1234.5, source: 'Estimate by the vision model (test), not market data', grade: 10, recordedAt: metadata.timestamp } }]);
      const lines: string[] = [];
      expect(await runReplayCommand(['card', cardId], store, (line) => lines.push(line))).toBe(0);
      const entries = lines.map((line) => JSON.parse(line));
      expect(entries.map((e) => e.type)).toEqual(['CardGraded', 'CardPriceRecorded']);
      expect(entries[0].summary).toMatch(/^graded 10 \(centering 10, corners 10, edges 10, surface 10; front\) as "Unknown card" for user:/);
      expect(entries[0].data.result.measurements.front.corners).toHaveLength(4);
      expect(entries[1].summary).toBe('price $1234.50 on 2026-03-06 at grade 10, from Estimate by the vision model (test), not market data');

      await expect(runReplayCommand(['card', 'nope'], store, () => {})).rejects.toThrow('No card nope in the log.');
    });
  });
});
