import { NOT_AVAILABLE } from '@contracts/grading';
import { cn, plainReason } from '@/lib/utils';

/** An estimate as stored ("$12.50 (vision-model estimate)"): the price stands out, who estimated it stays beside it. */
export function CardValue({ estimatedValue, labelClassName }: { estimatedValue: string | null; labelClassName?: string }) {
  const text = plainReason(estimatedValue?.trim() || NOT_AVAILABLE);
  const [price, ...rest] = text.split(/\s+/);
  return (
    <span className="grid">
      <span className="font-semibold tabular-nums">{price}</span>
      {rest.length > 0 ? <span className={cn('text-xs text-muted-foreground', labelClassName)}>{rest.join(' ')}</span> : null}
    </span>
  );
}
