import type { AchievementProgress } from '@contracts/cards';
import { Award, Lock } from 'lucide-react';
import { cn } from '@/lib/utils';

// The level colours of the achievement notification; anything else gets a neutral style (SPEC.md §3).
const LEVEL_STYLE: Record<string, string> = {
  bronze: 'bg-orange-100 text-orange-800',
  silver: 'bg-slate-200 text-slate-800',
  gold: 'bg-amber-100 text-amber-800',
};

const LEVEL_NAME: Record<string, string> = { bronze: 'Bronze', silver: 'Silver', gold: 'Gold' };

/** The round medal of an achievement: in its level's colour once earned, grey with a lock while locked. */
export function AchievementMedal({ achievement, className }: { achievement: Pick<AchievementProgress, 'level' | 'earned'>; className?: string }) {
  return (
    <span
      className={cn(
        'flex size-10 shrink-0 items-center justify-center rounded-full',
        achievement.earned ? (LEVEL_STYLE[achievement.level] ?? 'bg-muted text-muted-foreground') : 'bg-muted text-muted-foreground',
        className,
      )}
      aria-hidden
    >
      {achievement.earned ? <Award className="size-5" /> : <Lock className="size-4" />}
    </span>
  );
}

export function levelName(level: string): string {
  return LEVEL_NAME[level] ?? level;
}
