import { Link } from '@tanstack/react-router';
import type { LeaderboardEntry } from '@contracts/cards';
import { ArrowRight, Medal, Trophy } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';
import { useLeaderboard } from '../api';

const SKELETON_ROWS = 5;
const MEDALS = [
  { name: 'Gold medal', className: 'bg-amber-100 text-amber-700' },
  { name: 'Silver medal', className: 'bg-slate-200 text-slate-700' },
  { name: 'Bronze medal', className: 'bg-orange-100 text-orange-800' },
];

/** Top Graders on the home page (SPEC.md §2, §4): medals for ranks 1 to 3, five skeleton rows, empty and error states. */
export function TopGraders() {
  return (
    <LeaderboardCard title="Top Graders" titleAs="h2">
      <Button asChild variant="link" className="px-0">
        <Link to="/leaderboard">
          See the full leaderboard
          <ArrowRight aria-hidden />
        </Link>
      </Button>
    </LeaderboardCard>
  );
}

/** /leaderboard: every grader the server lists, in the same card as the home page's top ten. */
export function LeaderboardPage() {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:py-12">
      <title>Leaderboard · Card Grader</title>
      <LeaderboardCard title="Leaderboard" titleAs="h1" full />
    </div>
  );
}

function LeaderboardCard({ title, titleAs, full = false, children }: { title: string; titleAs: 'h1' | 'h2'; full?: boolean; children?: ReactNode }) {
  const { data, isPending, isError } = useLeaderboard({ full });
  return (
    <Card className="mx-auto w-full max-w-3xl">
      <CardHeader>
        <CardTitle as={titleAs} className={cn('flex items-center gap-2', titleAs === 'h1' && 'text-2xl')}>
          <Trophy className="size-5 text-primary" aria-hidden />
          {title}
        </CardTitle>
        <CardDescription>Collectors who have graded the most cards.</CardDescription>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <ul className="grid gap-2" aria-busy="true" aria-label="Loading leaderboard">
            {Array.from({ length: SKELETON_ROWS }, (_, i) => (
              <li key={i} className="flex items-center gap-3 rounded-lg px-3 py-2" data-testid="leaderboard-skeleton">
                <Skeleton className="size-8 rounded-full" />
                <Skeleton className="h-4 flex-1" />
                <Skeleton className="h-4 w-16" />
              </li>
            ))}
          </ul>
        ) : isError ? (
          <p className="rounded-lg bg-red-50 px-3 py-4 text-center text-sm font-medium text-red-800">Failed to load leaderboard data</p>
        ) : data.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted-foreground">No data available yet</p>
        ) : (
          <LeaderboardList entries={data} label={title} />
        )}
      </CardContent>
      {children ? <CardFooter>{children}</CardFooter> : null}
    </Card>
  );
}

function LeaderboardList({ entries, label }: { entries: readonly LeaderboardEntry[]; label: string }) {
  return (
          <ol className="grid gap-1" aria-label={label}>
            {entries.map((entry, index) => {
              const medal = MEDALS[index];
              return (
                <li key={entry.id} className="flex items-center gap-3 rounded-lg px-3 py-2 odd:bg-muted/50">
                  <span
                    className={cn('flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-bold tabular-nums', medal?.className ?? 'bg-muted text-muted-foreground')}
                  >
                    {medal ? (
                      <>
                        <Medal className="size-4" aria-hidden />
                        <span className="sr-only">{`Rank ${index + 1}, ${medal.name}`}</span>
                      </>
                    ) : (
                      <>
                        <span className="sr-only">Rank </span>
                        {index + 1}
                      </>
                    )}
                  </span>
                  <span className="min-w-0 flex-1 truncate font-medium">{entry.username}</span>
                  <span className="text-sm tabular-nums text-muted-foreground">
                    {entry.cardCount} {entry.cardCount === 1 ? 'card' : 'cards'}
                  </span>
                </li>
              );
            })}
          </ol>
  );
}
