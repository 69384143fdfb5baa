import type { CardGraded } from '../cards/events.ts';
import { ACHIEVEMENTS, GEM_GRADE, RARE_FIND_RARITIES, type AchievementDefinition, type AchievementMetric } from './catalogue.ts';

// What a collector has graded, reduced to the numbers the achievements look at. The achievements
// projection folds each card its user comes to own into these (a card graded, or a guest's card claimed),
// then asks which achievements they earn. Achievements once earned stay earned: deleting a card later
// takes nothing away, so these numbers only grow.

/** The facts about one graded card that achievements care about. */
export interface GradedCardFacts {
  overallGrade: number;
  centering: number | null;
  twoSided: boolean;
  cardSet: string | null;
  rarity: string | null;
  /** YYYY-MM-DD (UTC) */
  gradedOn: string;
}

export interface CollectorStats {
  cardsGraded: number;
  gemCards: number;
  perfectTens: number;
  twoSidedCards: number;
  perfectCentering: number;
  rareFinds: number;
  /** Distinct sets (lower-cased), kept only up to the most any achievement asks for. */
  sets: string[];
  /** Distinct days, kept only up to the most any achievement asks for. */
  days: string[];
}

export const emptyCollectorStats = (): CollectorStats => ({
  cardsGraded: 0,
  gemCards: 0,
  perfectTens: 0,
  twoSidedCards: 0,
  perfectCentering: 0,
  rareFinds: 0,
  sets: [],
  days: [],
});

/** The parts of a CardGraded payload the facts come from (a whole payload will do). */
export type GradedCardSummary = {
  images: { back: unknown };
  result: Pick<CardGraded['data']['result'], 'overallGrade' | 'cardSet' | 'rarity'> & { grades: { centering: number | null } };
  gradedAt: string;
};

export function factsOfGradedCard(graded: GradedCardSummary): GradedCardFacts {
  return {
    overallGrade: graded.result.overallGrade,
    centering: graded.result.grades.centering,
    twoSided: graded.images.back !== null,
    cardSet: graded.result.cardSet,
    rarity: graded.result.rarity,
    gradedOn: graded.gradedAt.slice(0, 10),
  };
}

const mostAskedFor = (metric: AchievementMetric) => Math.max(0, ...ACHIEVEMENTS.filter((a) => a.metric === metric).map((a) => a.target));

function addDistinct(values: string[], value: string | null, metric: AchievementMetric): string[] {
  if (value === null || value === '' || values.includes(value) || values.length >= mostAskedFor(metric)) return values;
  return [...values, value];
}

const count = (condition: boolean) => (condition ? 1 : 0);

export function addGradedCard(stats: CollectorStats, card: GradedCardFacts): CollectorStats {
  return {
    cardsGraded: stats.cardsGraded + 1,
    gemCards: stats.gemCards + count(card.overallGrade >= GEM_GRADE),
    perfectTens: stats.perfectTens + count(card.overallGrade >= 10),
    twoSidedCards: stats.twoSidedCards + count(card.twoSided),
    perfectCentering: stats.perfectCentering + count(card.centering !== null && card.centering >= 10),
    rareFinds: stats.rareFinds + count(card.rarity !== null && RARE_FIND_RARITIES.includes(card.rarity)),
    sets: addDistinct(stats.sets, card.cardSet?.trim().toLowerCase() ?? null, 'distinctSets'),
    days: addDistinct(stats.days, card.gradedOn, 'distinctDays'),
  };
}

export function metricValue(stats: CollectorStats, metric: AchievementMetric): number {
  switch (metric) {
    case 'distinctSets':
      return stats.sets.length;
    case 'distinctDays':
      return stats.days.length;
    default:
      return stats[metric];
  }
}

/** Every achievement these numbers earn, in catalogue order. */
export function earnedAchievements(stats: CollectorStats): AchievementDefinition[] {
  return ACHIEVEMENTS.filter((a) => metricValue(stats, a.metric) >= a.target);
}

/** How far along an achievement is, 0..1, for showing progress. */
export function achievementProgress(stats: CollectorStats, achievement: AchievementDefinition): number {
  return Math.min(1, metricValue(stats, achievement.metric) / achievement.target);
}
