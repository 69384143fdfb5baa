import { Link } from '@tanstack/react-router';
import { ArrowRight } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useAchievementProgress } from '@/features/achievements/api';
import { AchievementMedal } from '@/features/achievements/components/achievement-badge';
import { formatGrade } from '@/features/cards/grade-format';
import { useMyCards } from '@/features/collection/api';

/**
 * The profile's grading stats: cards graded, their average and the best, over the collection's own cards (sample
 * cards count for nothing, as on the leaderboard).
 */
export function GradingStats() {
  const { cards, isPending } = useMyCards();
  const graded = cards.filter((card) => !card.sample).map((card) => card.overallGrade);
  const average = graded.length === 0 ? null : graded.reduce((sum, grade) => sum + grade, 0) / graded.length;
  const best = graded.length === 0 ? null : Math.max(...graded);
  const stats: [string, string][] = [
    ['Cards graded', String(graded.length)],
    ['Average grade', average === null ? '—' : formatGrade(average)],
    ['Best grade', best === null ? '—' : formatGrade(best)],
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Grading Stats</CardTitle>
        <CardDescription>The cards saved in your collection</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-3 gap-3" data-testid="grading-stats">
          {stats.map(([term, value]) => (
            <div key={term} className="grid gap-1 rounded-lg bg-muted/60 px-3 py-2">
              <dt className="text-xs text-muted-foreground">{term}</dt>
              <dd className="text-xl font-bold tabular-nums">{isPending ? <Skeleton className="h-6 w-10" /> : value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}

/** The badges earned so far, with the way to all of them (earned and locked) on /achievements. */
export function ProfileBadges() {
  const { achievements, isPending } = useAchievementProgress();
  const earned = achievements.filter((a) => a.earned);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Badges</CardTitle>
        <CardDescription>{isPending ? 'Loading…' : `${earned.length} of ${achievements.length} earned`}</CardDescription>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <Skeleton className="h-10 w-full" />
        ) : earned.length === 0 ? (
          <p className="text-sm text-muted-foreground">None yet: grade and save a card to earn your first.</p>
        ) : (
          <ul className="flex flex-wrap gap-2" aria-label="Badges earned">
            {earned.map((achievement) => (
              <li key={achievement.achievementId} className="flex items-center gap-2 rounded-full border bg-card py-1 pl-1 pr-3 text-sm font-medium">
                <AchievementMedal achievement={achievement} className="size-7 [&_svg]:size-4" />
                {achievement.name}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <CardFooter>
        <Button asChild variant="link" className="px-0">
          <Link to="/achievements">
            See all achievements
            <ArrowRight aria-hidden />
          </Link>
        </Button>
      </CardFooter>
    </Card>
  );
}
