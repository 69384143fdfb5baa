import { ScanSearch } from 'lucide-react';
import { Card, CardContent } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';

/** What replaces the upload card while the card is graded (SPEC.md §2). */
export function AnalyzingCard() {
  return (
    <Card className="mx-auto w-full max-w-3xl">
      <CardContent className="flex flex-col items-center gap-4 px-6 py-16 text-center">
        <span className="relative flex size-16 items-center justify-center rounded-full bg-accent text-accent-foreground">
          <ScanSearch className="size-7" aria-hidden />
          <span className="absolute inset-0 animate-ping rounded-full bg-primary/10" aria-hidden />
        </span>
        <h2 className="text-xl font-semibold">Analyzing Card</h2>
        <p className="max-w-md text-sm text-muted-foreground">
          Our AI is examining your card's centering, corners, edges and surface. This takes a few seconds.
        </p>
        <Spinner label="Analyzing Card" />
      </CardContent>
    </Card>
  );
}
