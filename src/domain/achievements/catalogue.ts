import { z } from 'zod';
import type { Achievement } from '../../contracts/cards.ts';

// The achievements a collector can earn (SPEC.md §3 Achievement, §9: levels bronze, silver, gold).
// Each is a target on one measure of what the collector has graded (./collector-stats.ts), so whether it
// is earned, and how far along one is, both follow from the same numbers. Ids are stored in
// user_achievements: never renumber one, only add.

export type AchievementLevel = Achievement['level'];

export const achievementMetricSchema = z.enum([
  'cardsGraded',
  'gemCards',
  'perfectTens',
  'twoSidedCards',
  'perfectCentering',
  'rareFinds',
  'distinctSets',
  'distinctDays',
]);
export type AchievementMetric = z.infer<typeof achievementMetricSchema>;

export interface AchievementDefinition {
  achievementId: number;
  name: string;
  description: string;
  level: AchievementLevel;
  metric: AchievementMetric;
  target: number;
}

/** A card graded at least this high is a gem (SPEC.md §9: 9.5 and above is 'Excellent'). */
export const GEM_GRADE = 9.5;

/** Rarities worth a shout when one turns up (names as src/contracts/grading.ts normalises them). */
export const RARE_FIND_RARITIES: readonly string[] = ['Ultra Rare', 'Secret Rare', 'Full Art', 'Rainbow Rare', 'Character Super Rare (CSR)', 'Legendary'];

export const ACHIEVEMENTS: readonly AchievementDefinition[] = [
  { achievementId: 1, name: 'First Grade', description: 'Grade your first card.', level: 'bronze', metric: 'cardsGraded', target: 1 },
  { achievementId: 2, name: 'Collector', description: 'Grade 10 cards.', level: 'bronze', metric: 'cardsGraded', target: 10 },
  { achievementId: 3, name: 'Curator', description: 'Grade 50 cards.', level: 'silver', metric: 'cardsGraded', target: 50 },
  { achievementId: 4, name: 'Archivist', description: 'Grade 100 cards.', level: 'gold', metric: 'cardsGraded', target: 100 },
  { achievementId: 5, name: 'Gem Hunter', description: 'Grade a card 9.5 or higher.', level: 'silver', metric: 'gemCards', target: 1 },
  { achievementId: 6, name: 'Perfect Ten', description: 'Grade a card a perfect 10.', level: 'gold', metric: 'perfectTens', target: 1 },
  { achievementId: 7, name: 'Both Sides', description: 'Grade a card front and back.', level: 'bronze', metric: 'twoSidedCards', target: 1 },
  { achievementId: 8, name: 'Dead Center', description: 'Grade a card whose centering scores a 10.', level: 'silver', metric: 'perfectCentering', target: 1 },
  { achievementId: 9, name: 'Rare Find', description: 'Grade an Ultra Rare, Secret Rare, Full Art, Rainbow Rare, CSR or Legendary card.', level: 'bronze', metric: 'rareFinds', target: 1 },
  { achievementId: 10, name: 'Set Explorer', description: 'Grade cards from 5 different sets.', level: 'silver', metric: 'distinctSets', target: 5 },
  { achievementId: 11, name: 'Regular', description: 'Grade cards on 7 different days.', level: 'silver', metric: 'distinctDays', target: 7 },
  { achievementId: 12, name: 'Gem Vault', description: 'Grade 10 cards 9.5 or higher.', level: 'gold', metric: 'gemCards', target: 10 },
];

export function achievementById(achievementId: number): AchievementDefinition | undefined {
  return ACHIEVEMENTS.find((a) => a.achievementId === achievementId);
}
