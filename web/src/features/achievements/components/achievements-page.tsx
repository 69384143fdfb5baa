import type { AchievementProgress } from '@contracts/cards';
import { Trophy } from 'lucide-react';
import { Card, CardContent } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDate } from '@/features/cards/grade-format';
import { cn } from '@/lib/utils';
import { useAchievementProgress } from '../api';
import { AchievementMedal, levelName } from './achievement-badge';

/**
 * /achievements: every badge, earned ones first with the day they were earned, then the locked ones with how far
 * along they are (the notification shows a new one for 5 s; this is where it stays).
 */
export function AchievementsPage() {
  const { achievements, isPending } = useAchievementProgress();
  const earned = achievements.filter((a) => a.earned);
  const locked = achievements.filter((a) => !a.earned);
  return (
    <div className="mx-auto grid w-full max-w-5xl content-start gap-8 px-4 py-8 sm:px-6 sm:py-12">
      <title>Achievements · Card Grader</title>
      <header className="grid gap-1">
        <h1 className="flex items-center gap-2 text-3xl font-bold tracking-tight">
          <Trophy className="size-7 text-primary" aria-hidden />
          Achievements
        </h1>
        <p className="text-muted-foreground" data-testid="achievements-count">
          {isPending ? 'Loading your achievements...' : `${earned.length} of ${achievements.length} earned`}
        </p>
      </header>
      {isPending ? (
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-busy="true">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="h-28 rounded-xl" />
          ))}
        </div>
      ) : (
        <>
          <BadgeSection title="Earned" achievements={earned} empty="None yet: grade and save a card to earn your first." />
          <BadgeSection title="Locked" achievements={locked} empty="Every achievement is yours." />
        </>
      )}
    </div>
  );
}

function BadgeSection({ title, achievements, empty }: { title: string; achievements: readonly AchievementProgress[]; empty: string }) {
  return (
    <section className="grid gap-3" aria-labelledby={`badges-${title.toLowerCase()}`}>
      <h2 id={`badges-${title.toLowerCase()}`} className="text-lg font-semibold">
        {title} <span className="font-normal text-muted-foreground">({achievements.length})</span>
      </h2>
      {achievements.length === 0 ? (
        <p className="text-sm text-muted-foreground">{empty}</p>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {achievements.map((achievement) => (
            <li key={achievement.achievementId} data-testid="achievement">
              <AchievementCard achievement={achievement} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function AchievementCard({ achievement }: { achievement: AchievementProgress }) {
  const percent = Math.round((achievement.current / achievement.target) * 100);
  return (
    <Card className={cn('h-full', !achievement.earned && 'bg-muted/30')}>
      <CardContent className="flex h-full gap-3 p-4">
        <AchievementMedal achievement={achievement} />
        <div className="grid min-w-0 flex-1 content-start gap-1">
          <h3 className="font-semibold leading-tight">{achievement.name}</h3>
          <p className="text-sm text-muted-foreground">{achievement.description}</p>
          <p className="text-xs font-medium text-muted-foreground">
            {levelName(achievement.level)}
            {achievement.earned && achievement.earnedAt ? ` · Earned on ${formatDate(achievement.earnedAt)}` : ''}
          </p>
          {achievement.earned ? null : (
            <div className="mt-1 grid gap-1">
              <Progress value={percent} className="h-2" aria-label={`${achievement.name}: ${achievement.current} of ${achievement.target}`} />
              <p className="text-xs tabular-nums text-muted-foreground">
                {achievement.current} of {achievement.target}
              </p>
            </div>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
