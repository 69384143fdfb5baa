// A mixed history of real events as the product writes them, the same every time: for tests that rebuild read
// models from what a live product logs, and for bench:store (which writes it straight into the log).
import { seededRandom } from '../../src/seeded-random.ts';
import { cardGradedData, gradedCard } from '../cards/graded-card-fixture.ts';

export interface HistoryEvent {
  streamId: string;
  streamType: string;
  type: string;
  data: unknown;
}

/**
 * About `events` events of a live product: users registering and signing in, cards graded and most of them saved
 * (a few as samples), a daily price for saved cards, guests' cards claimed at sign-in, deletes, achievement
 * notifications seen, portfolio cards added and priced; handed to `write` a few hundred at a time, in log order.
 * The same history for the same `events` and `seed`. Returns how many events of each type.
 */
export async function mixedHistory(events: number, write: (events: HistoryEvent[]) => Promise<void>, seed = 42): Promise<Record<string, number>> {
  const next = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const hexDigits = (n: number) => Array.from({ length: n }, () => Math.floor(next() * 16).toString(16)).join('');
  const randomUUID = () => `${hexDigits(8)}-${hexDigits(4)}-4${hexDigits(3)}-8${hexDigits(3)}-${hexDigits(12)}`;
  const result = gradedCard();
  const base = cardGradedData({ result });
  const hex = (n: number) => n.toString(16).padStart(64, '0');
  const start = Date.UTC(2026, 0, 1);
  let step = 0;
  const at = () => new Date(start + step * 7_000).toISOString();
  const day = () => at().slice(0, 10);

  const users: string[] = [];
  const guests: string[] = [];
  const unsaved: { cardId: string; owner: string }[] = [];
  const saved: { cardId: string; owner: string }[] = [];
  const guestCards: { cardId: string; guest: string }[] = [];
  const portfolioCards: number[] = [];
  let cardNumber = 0;
  let portfolioNumber = 0;
  const counts: Record<string, number> = {};
  const rarities = ['Common', 'Uncommon', 'Rare', 'Holo', null];
  const sets = ['Base Set', 'Jungle', 'Fossil', 'Team Rocket', null];

  let pending: HistoryEvent[] = [];
  let written = 0;
  const emit = (event: HistoryEvent) => {
    pending.push(event);
    counts[event.type] = (counts[event.type] ?? 0) + 1;
  };

  function grade(owner: string): string {
    const n = ++cardNumber;
    const cardId = `mixed${String(n).padStart(17, '0')}`;
    emit({
      streamId: `card-${cardId}`,
      streamType: 'card',
      type: 'CardGraded',
      data: {
        ...base,
        cardId,
        owner,
        images: { front: { hash: hex(2 * n), contentType: 'image/jpeg', sourceUrl: null }, back: null },
        annotatedImages: { front: hex(2 * n + 1), back: null },
        result: { ...result, cardName: `Card ${n}`, overallGrade: 5 + Math.floor(next() * 51) / 10, rarity: pick(rarities), cardSet: pick(sets) },
        gradedAt: at(),
        savedSeparately: true,
      },
    });
    return cardId;
  }

  while (written + pending.length < events) {
    step++;
    const roll = next();
    if (users.length < 20 || roll < 0.02) {
      const userId = randomUUID();
      users.push(userId);
      emit({
        streamId: `user-${userId}`,
        streamType: 'user',
        type: 'UserRegistered',
        data: {
          userId,
          username: `collector${users.length}`,
          email: `collector${users.length}@example.com`,
          passwordHash: '$argon2id$bench',
          firstName: null,
          lastName: null,
          phone: null,
          marketingNotificationsEnabled: false,
          providerUserId: userId,
          providerToken: 'built-in',
          registeredAt: at(),
        },
      });
    } else if (roll < 0.08) {
      const userId = pick(users);
      emit({ streamId: `user-${userId}`, streamType: 'user', type: 'UserLoggedIn', data: { userId, at: at() } });
    } else if (roll < 0.42) {
      const owner = `user:${pick(users)}`;
      unsaved.push({ cardId: grade(owner), owner });
    } else if (roll < 0.45) {
      if (guests.length === 0 || next() < 0.2) guests.push(randomUUID());
      const guest = pick(guests);
      guestCards.push({ cardId: grade(`guest:${guest}`), guest });
    } else if (roll < 0.7) {
      const card = unsaved.pop();
      if (!card) continue;
      const sample = next() < 0.05;
      emit({ streamId: `card-${card.cardId}`, streamType: 'card', type: 'CardSaved', data: { cardId: card.cardId, owner: card.owner, sample, savedAt: at() } });
      if (!sample) saved.push(card);
    } else if (roll < 0.82) {
      if (saved.length === 0) continue;
      const { cardId } = pick(saved);
      const priceValue = Math.round(next() * 20_000) / 100;
      emit({
        streamId: `card-${cardId}`,
        streamType: 'card',
        type: 'CardPriceRecorded',
        data: { cardId, priceDate: day(), priceValue, source: 'TCGplayer market, Near Mint', grade: 8, recordedAt: at() },
      });
    } else if (roll < 0.83) {
      if (saved.length === 0) continue;
      const [card] = saved.splice(Math.floor(next() * saved.length), 1);
      emit({ streamId: `card-${card!.cardId}`, streamType: 'card', type: 'CardDeleted', data: { cardId: card!.cardId, owner: card!.owner, deletedAt: at() } });
    } else if (roll < 0.84) {
      const card = guestCards.shift();
      if (!card) continue;
      const owner = `user:${pick(users)}`;
      emit({
        streamId: `card-${card.cardId}`,
        streamType: 'card',
        type: 'CardOwnerChanged',
        data: { cardId: card.cardId, from: `guest:${card.guest}`, to: owner, changedAt: at() },
      });
      unsaved.push({ cardId: card.cardId, owner });
    } else if (roll < 0.86) {
      const userId = pick(users);
      emit({
        streamId: `achievements-${userId}`,
        streamType: 'achievements',
        type: 'AchievementNotificationShown',
        data: { userId, achievementId: 1 + Math.floor(next() * 4), shownAt: at() },
      });
    } else if (roll < 0.93) {
      const cardId = ++portfolioNumber;
      portfolioCards.push(cardId);
      emit({
        streamId: `portfolio-card-${cardId}`,
        streamType: 'portfolio-card',
        type: 'PortfolioCardAdded',
        data: {
          cardId,
          owner: `user:${pick(users)}`,
          details: {
            cardName: `Holding ${cardId}`,
            cardSet: pick(sets),
            cardNumber: `${cardId % 102}/102`,
            cardYear: '1999',
            isGraded: next() < 0.5,
            gradingCompany: null,
            officialGrade: null,
            estimatedGrade: 8.5,
            imageUrl: null,
            backImageUrl: null,
            condition: 'Near Mint',
            rarity: pick(rarities),
            category: 'Pokemon',
            notes: null,
            acquisitionPrice: Math.floor(next() * 10_000),
            acquisitionDate: day(),
          },
          addedAt: at(),
        },
      });
    } else {
      if (portfolioCards.length === 0) continue;
      const cardId = pick(portfolioCards);
      emit({
        streamId: `portfolio-card-${cardId}`,
        streamType: 'portfolio-card',
        type: 'PortfolioCardPriced',
        data: { cardId, price: Math.floor(next() * 50_000), source: 'Manual entry', priceDate: day(), pricedAt: at() },
      });
    }
    if (pending.length >= 500) await flush();
  }
  await flush();
  return counts;

  async function flush(): Promise<void> {
    if (pending.length === 0) return;
    await write(pending);
    written += pending.length;
    pending = [];
  }
}
