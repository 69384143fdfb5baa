import { LoaderCircle } from 'lucide-react';
import { cn } from '@/lib/utils';

/** A spinning ring announced to screen readers as `label`. */
export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <span role="status" className="inline-flex items-center">
      <LoaderCircle className={cn('size-6 animate-spin text-primary', className)} aria-hidden />
      <span className="sr-only">{label}</span>
    </span>
  );
}
