import { useMutation } from '@tanstack/react-query';
import { feedbackMessages, type FeedbackFields, type FeedbackSubmittedResponse } from '@contracts/feedback';
import { toast } from '@/components/ui/use-toast';
import { ApiError, apiUpload } from '@/lib/api-client';

export type FeedbackSubmission = FeedbackFields & { image: File | null };

function feedbackForm({ name, email, category, feedbackText, image }: FeedbackSubmission): FormData {
  const form = new FormData();
  form.append('name', name ?? '');
  form.append('email', email ?? '');
  form.append('category', category);
  form.append('feedbackText', feedbackText);
  if (image) form.append('image', image);
  return form;
}

/** POST /api/feedback (SPEC.md §7); a failure is the 'Submission Failed' toast with the server's words (§8). */
export function useSubmitFeedbackMutation() {
  return useMutation({
    mutationFn: async (submission: FeedbackSubmission) => (await (await apiUpload('/api/feedback', feedbackForm(submission))).json()) as FeedbackSubmittedResponse,
    onError: (error) => {
      toast({
        title: feedbackMessages.submissionFailed.title,
        description: (error instanceof ApiError ? error.serverMessage : undefined) ?? feedbackMessages.submissionFailed.description,
        variant: 'destructive',
      });
    },
  });
}
