import { describe, expect, it } from 'vitest';
import { achievementLevelSchema } from '../../src/contracts/cards.ts';
import {
  ACHIEVEMENTS,
  achievementById,
  achievementNotificationsDecider,
  achievementProgress,
  addGradedCard,
  earnedAchievements,
  emptyCollectorStats,
  factsOfGradedCard,
  type CollectorStats,
  type GradedCardFacts,
} from '../../src/domain/achievements/index.ts';
import { cardGradedData, gradedCard, hash } from '../cards/graded-card-fixture.ts';

const ordinary: GradedCardFacts = { overallGrade: 8.2, centering: 8, twoSided: false, cardSet: null, rarity: null, gradedOn: '2026-03-01' };

function statsOf(cards: GradedCardFacts[]): CollectorStats {
  return cards.reduce(addGradedCard, emptyCollectorStats());
}
const earnedNames = (cards: GradedCardFacts[]) => earnedAchievements(statsOf(cards)).map((a) => a.name);
const times = (n: number, card: GradedCardFacts = ordinary) => Array.from({ length: n }, () => card);

describe('the catalogue', () => {
  it('has at least eight achievements over all three levels, with unique ids and names', () => {
    expect(ACHIEVEMENTS.length).toBeGreaterThanOrEqual(8);
    expect(new Set(ACHIEVEMENTS.map((a) => a.achievementId)).size).toBe(ACHIEVEMENTS.length);
    expect(new Set(ACHIEVEMENTS.map((a) => a.name)).size).toBe(ACHIEVEMENTS.length);
    expect(new Set(ACHIEVEMENTS.map((a) => a.level))).toEqual(new Set(achievementLevelSchema.options));
    for (const a of ACHIEVEMENTS) {
      expect(Number.isInteger(a.achievementId) && a.achievementId > 0).toBe(true);
      expect(a.description).toMatch(/\.$/);
      expect(a.target).toBeGreaterThan(0);
    }
  });

  it('keeps the ids that are stored in user_achievements', () => {
    expect(ACHIEVEMENTS.map((a) => [a.achievementId, a.name])).toEqual([
      [1, 'First Grade'],
      [2, 'Collector'],
      [3, 'Curator'],
      [4, 'Archivist'],
      [5, 'Gem Hunter'],
      [6, 'Perfect Ten'],
      [7, 'Both Sides'],
      [8, 'Dead Center'],
      [9, 'Rare Find'],
      [10, 'Set Explorer'],
      [11, 'Regular'],
      [12, 'Gem Vault'],
    ]);
    expect(achievementById(6)?.level).toBe('gold');
    expect(achievementById(999)).toBeUndefined();
  });
});

describe('what earns what', () => {
  it('nothing for nothing', () => {
    expect(earnedNames([])).toEqual([]);
  });

  it('the first grade', () => {
    expect(earnedNames([ordinary])).toEqual(['First Grade']);
  });

  it('10, 50 and 100 cards graded, exactly at the target', () => {
    expect(earnedNames(times(9))).toEqual(['First Grade']);
    expect(earnedNames(times(10))).toEqual(['First Grade', 'Collector']);
    expect(earnedNames(times(49))).not.toContain('Curator');
    expect(earnedNames(times(50))).toEqual(['First Grade', 'Collector', 'Curator']);
    expect(earnedNames(times(99))).not.toContain('Archivist');
    expect(earnedNames(times(100))).toEqual(['First Grade', 'Collector', 'Curator', 'Archivist']);
  });

  it('a 9.5 or better card, a perfect 10, and ten gems', () => {
    expect(earnedNames([{ ...ordinary, overallGrade: 9.4 }])).not.toContain('Gem Hunter');
    expect(earnedNames([{ ...ordinary, overallGrade: 9.5 }])).toEqual(['First Grade', 'Gem Hunter']);
    expect(earnedNames([{ ...ordinary, overallGrade: 10 }])).toEqual(['First Grade', 'Gem Hunter', 'Perfect Ten']);
    expect(earnedNames(times(10, { ...ordinary, overallGrade: 9.6 }))).toContain('Gem Vault');
    expect(earnedNames([...times(9, { ...ordinary, overallGrade: 9.6 }), ordinary])).not.toContain('Gem Vault');
  });

  it('a card graded front and back, perfect centering, a rare find', () => {
    expect(earnedNames([{ ...ordinary, twoSided: true }])).toContain('Both Sides');
    expect(earnedNames([{ ...ordinary, centering: 10 }])).toContain('Dead Center');
    expect(earnedNames([{ ...ordinary, centering: null }])).not.toContain('Dead Center');
    expect(earnedNames([{ ...ordinary, rarity: 'Secret Rare' }])).toContain('Rare Find');
    expect(earnedNames([{ ...ordinary, rarity: 'Common' }])).not.toContain('Rare Find');
  });

  it('five different sets, however they are written; unknown sets do not count', () => {
    const sets = ['Base Set', 'base set ', 'Jungle', 'Fossil', 'Team Rocket', null, ''];
    expect(earnedNames(sets.map((cardSet) => ({ ...ordinary, cardSet })))).not.toContain('Set Explorer');
    expect(earnedNames([...sets, 'Gym Heroes'].map((cardSet) => ({ ...ordinary, cardSet })))).toContain('Set Explorer');
  });

  it('seven different days', () => {
    const days = (n: number) => Array.from({ length: n }, (_, i) => ({ ...ordinary, gradedOn: `2026-03-${String(i + 1).padStart(2, '0')}` }));
    expect(earnedNames([...days(6), ...days(6)])).not.toContain('Regular');
    expect(earnedNames(days(7))).toContain('Regular');
  });

  it('keeps the numbers small however many cards there are', () => {
    const many = Array.from({ length: 300 }, (_, i) => ({ ...ordinary, cardSet: `Set ${i}`, gradedOn: `day ${i}` }));
    const stats = statsOf(many);
    expect(stats.sets).toHaveLength(5);
    expect(stats.days).toHaveLength(7);
    expect(stats.cardsGraded).toBe(300);
  });

  it('shows progress towards each achievement', () => {
    const stats = statsOf(times(25));
    expect(achievementProgress(stats, achievementById(3)!)).toBe(0.5);
    expect(achievementProgress(stats, achievementById(2)!)).toBe(1);
  });
});

describe('facts of a graded card', () => {
  it('are read from the CardGraded event', () => {
    const twoSided = gradedCard({ back: {}, identification: { cardSet: 'Base Set', rarity: 'Holo' } });
    const data = cardGradedData({
      result: twoSided,
      images: { front: { hash: hash(1), contentType: 'image/jpeg', sourceUrl: null }, back: { hash: hash(3), contentType: 'image/png', sourceUrl: null } },
      gradedAt: '2026-04-02T23:59:00.000Z',
    });
    expect(factsOfGradedCard(data)).toEqual({
      overallGrade: twoSided.overallGrade,
      centering: twoSided.grades.centering,
      twoSided: true,
      cardSet: 'Base Set',
      rarity: 'Holo',
      gradedOn: '2026-04-02',
    });
    expect(twoSided.overallGrade).toBe(10);
    expect(earnedAchievements(addGradedCard(emptyCollectorStats(), factsOfGradedCard(data))).map((a) => a.name)).toEqual([
      'First Grade',
      'Gem Hunter',
      'Perfect Ten',
      'Both Sides',
      'Dead Center',
    ]);
  });
});

describe('the notification of an achievement', () => {
  const mark = (achievementId: number, earned = true) =>
    ({ type: 'MarkAchievementShown', data: { userId: 'u1', achievementId, earned, shownAt: '2026-03-01T12:00:00.000Z' } }) as const;
  const shown = (achievementId: number) =>
    ({ type: 'AchievementNotificationShown', data: { userId: 'u1', achievementId, shownAt: '2026-03-01T12:00:00.000Z' } }) as const;
  const given = (...events: ReturnType<typeof shown>[]) => events.reduce(achievementNotificationsDecider.evolve, achievementNotificationsDecider.initialState());

  it('is marked shown once; marking it again changes nothing', () => {
    expect(achievementNotificationsDecider.decide(mark(5), given())).toEqual([shown(5)]);
    expect(achievementNotificationsDecider.decide(mark(5), given(shown(5)))).toEqual([]);
    expect(achievementNotificationsDecider.decide(mark(1), given(shown(5)))).toEqual([shown(1)]);
  });

  it('cannot be marked for an achievement not earned, or not in the catalogue', () => {
    expect(() => achievementNotificationsDecider.decide(mark(5, false), given())).toThrow(expect.objectContaining({ kind: 'not_found', code: 'achievement_not_found' }));
    expect(() => achievementNotificationsDecider.decide(mark(999), given())).toThrow(expect.objectContaining({ code: 'achievement_not_found' }));
  });
});
