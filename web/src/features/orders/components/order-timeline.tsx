import { Link } from '@tanstack/react-router';
import { Check, Circle } from 'lucide-react';
import { ORDER_PROGRESS, type OrderTimelineEntry } from '@contracts/orders';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';

const STEPS = ['submitted', ...ORDER_PROGRESS] as const;
const LABELS: Record<(typeof STEPS)[number], string> = {
  submitted: 'Placed',
  received: 'Received by the grader',
  grading: 'Being graded',
  graded: 'Graded',
  shipped: 'Shipped back',
  delivered: 'Delivered',
};
const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'America/New_York' });

/** Where the order has got to at the grading provider (issue 33): each step reached with its time, the rest to come. */
export function OrderTimeline({ timeline, cardId }: { timeline: readonly OrderTimelineEntry[]; cardId: string }) {
  const reached = new Map(timeline.map((entry) => [entry.status, entry.at]));
  return (
    <Card className="sm:col-span-2">
      <CardHeader>
        <CardTitle as="h2">Progress</CardTitle>
        <CardDescription>
          Once graded, the card’s grade is recorded on{' '}
          <Link to="/card/$id" params={{ id: cardId }} className="font-medium text-primary underline-offset-4 hover:underline">
            its page
          </Link>{' '}
          beside the engine’s estimate; a grade that came back another way can be reported below.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ol className="grid gap-3" aria-label="Order progress">
          {STEPS.map((step) => {
            const at = reached.get(step);
            return (
              <li key={step} className="flex items-start gap-3" data-reached={at ? 'true' : 'false'}>
                <span className={cn('mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full border', at ? 'border-primary bg-primary text-primary-foreground' : 'text-muted-foreground')}>
                  {at ? <Check className="size-3.5" aria-hidden /> : <Circle className="size-2" aria-hidden />}
                </span>
                <span className="grid">
                  <span className={at ? 'font-medium' : 'text-muted-foreground'}>{LABELS[step]}</span>
                  <span className="text-sm text-muted-foreground">{at ? when.format(new Date(at)) : 'Not yet'}</span>
                </span>
              </li>
            );
          })}
        </ol>
      </CardContent>
    </Card>
  );
}
