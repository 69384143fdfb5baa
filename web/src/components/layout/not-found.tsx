import { Link } from '@tanstack/react-router';
import { ArrowLeft, SearchX } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';

/** Any path without a screen (SPEC.md §2). */
export function NotFound() {
  return (
    <div className="flex flex-1 items-center justify-center px-4 py-16">
      <title>404 Page Not Found · Card Grader</title>
      <Card className="w-full max-w-md">
        <CardContent className="flex flex-col items-center gap-4 p-8 text-center">
          <span className="flex size-12 items-center justify-center rounded-full bg-accent text-accent-foreground">
            <SearchX className="size-6" aria-hidden />
          </span>
          <h1 className="text-2xl font-semibold tracking-tight">404 Page Not Found</h1>
          <p className="text-muted-foreground">The page you are looking for doesn't exist or has moved.</p>
          <Button asChild variant="outline">
            <Link to="/">
              <ArrowLeft aria-hidden />
              Back to Home
            </Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
