import type { Achievement } from '@contracts/cards';
import { Award, X } from 'lucide-react';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { cn } from '@/lib/utils';
import { useMarkAchievementShown, useRefetchAchievements, useUnannouncedAchievements } from '../api';

// SPEC.md §9: it goes by itself after 5 s; its progress bar runs for 3 s.
const AUTO_DISMISS_MS = 5000;
const PROGRESS_BAR_MS = 3000;

const LEVEL_STYLE: Record<string, string> = {
  bronze: 'bg-orange-100 text-orange-800',
  silver: 'bg-slate-200 text-slate-800',
  gold: 'bg-amber-100 text-amber-800',
};

/**
 * 'Achievement Unlocked!' at the top right of every screen (SPEC.md §2, §4): one at a time, the first not yet shown.
 * Closing it, or letting it go after 5 s, marks it shown on the server; a double-click only hides it for now.
 */
export function AchievementNotification() {
  const achievements = useUnannouncedAchievements();
  const markShown = useMarkAchievementShown();
  const refetch = useRefetchAchievements();
  // Hidden in this page's life, whether marked shown or only double-clicked away.
  const [hidden, setHidden] = useState<ReadonlySet<number>>(new Set());
  const current = achievements.find((achievement) => !hidden.has(achievement.achievementId));

  const hide = (achievementId: number) => setHidden((ids) => new Set(ids).add(achievementId));
  const close = (achievementId: number) => {
    hide(achievementId);
    markShown.mutate(achievementId);
  };

  const currentId = current?.achievementId;
  const closeAutomatically = useEffectEvent(close);
  useEffect(() => {
    if (currentId === undefined) return;
    const timer = setTimeout(() => closeAutomatically(currentId), AUTO_DISMISS_MS);
    return () => clearTimeout(timer);
  }, [currentId]);

  if (!current) return null;
  return (
    <AchievementCard
      key={current.achievementId}
      achievement={current}
      onClose={() => close(current.achievementId)}
      onForceDismiss={() => {
        hide(current.achievementId);
        refetch();
      }}
    />
  );
}

function AchievementCard({
  achievement,
  onClose,
  onForceDismiss,
}: {
  achievement: Achievement;
  onClose: () => void;
  onForceDismiss: () => void;
}) {
  const barRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const animation = barRef.current?.animate([{ transform: 'scaleX(1)' }, { transform: 'scaleX(0)' }], {
      duration: PROGRESS_BAR_MS,
      easing: 'linear',
      fill: 'forwards',
    });
    return () => animation?.cancel();
  }, []);

  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="achievement-notification"
      onDoubleClick={onForceDismiss}
      className="fixed right-4 top-20 z-50 w-[calc(100%-2rem)] max-w-sm select-none overflow-hidden rounded-xl border bg-card shadow-xl animate-toast-in"
    >
      <div className="flex items-start gap-3 p-4 pr-10">
        <span className={cn('flex size-10 shrink-0 items-center justify-center rounded-full', LEVEL_STYLE[achievement.level] ?? 'bg-muted text-muted-foreground')}>
          <Award className="size-5" aria-hidden />
        </span>
        <div className="grid min-w-0 gap-0.5">
          <p className="text-sm font-semibold text-primary">Achievement Unlocked!</p>
          <p className="font-semibold">{achievement.name}</p>
          <p className="text-sm text-muted-foreground">{achievement.description}</p>
          <p className="mt-1 text-xs text-muted-foreground">
            <span className="capitalize">{achievement.level}</span> · Double-click to force dismiss
          </p>
        </div>
      </div>
      <button
        type="button"
        onClick={onClose}
        aria-label="Close"
        className="absolute right-2 top-2 cursor-pointer rounded-md p-1 text-muted-foreground hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <X className="size-4" aria-hidden />
      </button>
      <div className="h-1 bg-muted" aria-hidden>
        <div ref={barRef} className="h-full origin-left bg-primary" />
      </div>
    </div>
  );
}
