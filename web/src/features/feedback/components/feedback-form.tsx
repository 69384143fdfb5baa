import { zodResolver } from '@hookform/resolvers/zod';
import { Send } from 'lucide-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { User } from '@contracts/auth';
import { FEEDBACK_CATEGORIES, FEEDBACK_TEXT_MAX, feedbackFieldsSchema, feedbackMessages } from '@contracts/feedback';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { useSubmitFeedbackMutation } from '../api';
import { FeedbackImageInput } from './feedback-image-input';

type FormInput = z.input<typeof feedbackFieldsSchema>;
type FormOutput = z.output<typeof feedbackFieldsSchema>;

/** Name and email prefilled from the user (SPEC.md §5); a guest fills them in, or not. */
function prefilled(user: User | null): FormInput {
  const name = user ? [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username : '';
  return { name, email: user?.email ?? '', category: 'general', feedbackText: '' };
}

/** The 'Share Your Feedback' form: editing, then submitting; `onSubmitted` shows the thank-you state. */
export function FeedbackForm({ user, onSubmitted }: { user: User | null; onSubmitted: () => void }) {
  const submit = useSubmitFeedbackMutation();
  const [image, setImage] = useState<File | null>(null);
  const form = useForm<FormInput, unknown, FormOutput>({ resolver: zodResolver(feedbackFieldsSchema), defaultValues: prefilled(user) });
  const { errors } = form.formState;

  return (
    <form
      noValidate
      aria-label="Share Your Feedback"
      className="grid gap-5"
      onSubmit={form.handleSubmit(
        (fields) => submit.mutate({ ...fields, image }, { onSuccess: onSubmitted }),
        (invalid) => {
          if (invalid.feedbackText) toast({ ...feedbackMessages.missingFeedback, variant: 'destructive' });
        },
      )}
    >
      <div className="grid gap-5 sm:grid-cols-2">
        <Field id="feedback-name" label="Name" error={errors.name?.message}>
          {(control) => <Input {...control} autoComplete="name" placeholder="Your name" {...form.register('name')} />}
        </Field>
        <Field id="feedback-email" label="Email" error={errors.email?.message}>
          {(control) => <Input {...control} type="email" autoComplete="email" placeholder="you@example.com" {...form.register('email')} />}
        </Field>
      </div>
      <Controller
        control={form.control}
        name="category"
        render={({ field }) => (
          <Field id="feedback-category" label="Category" error={errors.category?.message}>
            {(control) => (
              <Select value={String(field.value ?? 'general')} onValueChange={field.onChange}>
                <SelectTrigger {...control} ref={field.ref} onBlur={field.onBlur}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {FEEDBACK_CATEGORIES.map((category) => (
                    <SelectItem key={category.value} value={category.value}>
                      {category.label}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          </Field>
        )}
      />
      <Field id="feedback-text" label="Your Feedback" error={errors.feedbackText?.message}>
        {(control) => (
          <Textarea
            {...control}
            rows={6}
            maxLength={FEEDBACK_TEXT_MAX}
            placeholder="Tell us what you think, what went wrong, or what you would like to see..."
            {...form.register('feedbackText')}
          />
        )}
      </Field>
      <FeedbackImageInput file={image} onChange={setImage} />
      <Button type="submit" size="lg" className="w-full sm:w-auto sm:justify-self-end" disabled={submit.isPending}>
        <Send aria-hidden />
        {submit.isPending ? 'Submitting...' : 'Submit Feedback'}
      </Button>
    </form>
  );
}
