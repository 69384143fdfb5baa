import { Sparkle } from 'lucide-react';
import { useState } from 'react';
import { cn } from '@/lib/utils';

// Where the sparkles sit around the badge, as shares of its box, and when each one twinkles.
const SPARKLES = [
  { left: '-6%', top: '-30%', delay: '0ms' },
  { left: '88%', top: '-35%', delay: '250ms' },
  { left: '40%', top: '80%', delay: '500ms' },
  { left: '100%', top: '60%', delay: '750ms' },
];

/**
 * The rarity badge of the result screen (SPEC.md §2): hovering it lights the sparkle effect, a click toggles it.
 * Without a rarity it reads 'Unknown rarity' and has no effect.
 */
export function RarityBadge({ rarity }: { rarity: string | null }) {
  const [sparkling, setSparkling] = useState(false);
  if (!rarity) {
    return <span className="inline-flex rounded-full border px-2.5 py-0.5 text-xs font-semibold text-muted-foreground">Unknown rarity</span>;
  }
  return (
    <button
      type="button"
      aria-pressed={sparkling}
      aria-label={`Rarity: ${rarity}. Sparkle effect`}
      onMouseEnter={() => setSparkling(true)}
      onClick={() => setSparkling((on) => !on)}
      className={cn(
        'relative inline-flex cursor-pointer items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-semibold transition-shadow focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        sparkling
          ? 'border-amber-300 bg-linear-to-r from-amber-50 via-yellow-100 to-amber-50 text-amber-900 shadow-[0_0_12px_rgba(245,158,11,0.45)]'
          : 'border-amber-200 bg-amber-50 text-amber-900',
      )}
    >
      <Sparkle className="size-3" aria-hidden />
      {rarity}
      {sparkling
        ? SPARKLES.map((sparkle) => (
            <Sparkle
              key={sparkle.left + sparkle.top}
              aria-hidden
              className="pointer-events-none absolute size-2.5 animate-pulse fill-amber-400 text-amber-500"
              style={{ left: sparkle.left, top: sparkle.top, animationDelay: sparkle.delay }}
            />
          ))
        : null}
    </button>
  );
}
