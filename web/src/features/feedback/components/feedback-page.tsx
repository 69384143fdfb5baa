import { CircleCheck, MessageSquare } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useUser } from '@/features/auth/api';
import { FeedbackForm } from './feedback-form';

/** /feedback (SPEC.md §2): the form, then the thank-you state; 'Submit More Feedback' brings a fresh form back. */
export function FeedbackPage() {
  const { user, isPending } = useUser();
  const [submitted, setSubmitted] = useState(false);

  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-8 sm:py-12">
      <title>Feedback · Card Grader</title>
      {submitted ? (
        <Card>
          <CardContent className="grid justify-items-center gap-4 p-8 text-center" role="status">
            <CircleCheck className="size-12 text-primary" aria-hidden />
            <h1 className="text-2xl font-semibold tracking-tight">Thank You!</h1>
            <p className="max-w-md text-muted-foreground">
              Your feedback has been submitted successfully. We read every message and use it to make Card Grader better.
            </p>
            <Button size="lg" onClick={() => setSubmitted(false)}>
              Submit More Feedback
            </Button>
          </CardContent>
        </Card>
      ) : (
        <Card>
          <CardHeader>
            <CardTitle as="h1" className="flex items-center gap-2 text-2xl">
              <MessageSquare className="size-6 text-primary" aria-hidden />
              Share Your Feedback
            </CardTitle>
            <CardDescription>Tell us what works, what does not, and what you would like next. Bug reports, ideas and screenshots all welcome.</CardDescription>
          </CardHeader>
          <CardContent>
            {isPending ? (
              <div className="flex justify-center py-10">
                <Spinner />
              </div>
            ) : (
              <FeedbackForm user={user} onSubmitted={() => setSubmitted(true)} />
            )}
          </CardContent>
        </Card>
      )}
    </div>
  );
}
