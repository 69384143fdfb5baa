import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from '@tanstack/react-router';
import { CircleAlert, MailCheck, ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { newPasswordSchema, passwordResetMessages, passwordResetRequestSchema, type PasswordResetLinkStatus } from '@contracts/password-reset';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import { useRequestResetLink, useResetLinkStatus, useResetPassword } from '../password-reset-api';
import { PasswordInput } from './password-input';

// The two pages of "Forgot password?": /forgot-password asks for the email, /reset-password?token=… (the mailed
// link) chooses the new password.

const messageOf = (error: Error) => (error instanceof ApiError ? error.serverMessage : undefined) ?? 'Something went wrong. Please try again.';

function ResetCard({ title, description, children, footer }: { title: string; description?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <title>{`${title} · Card Grader`}</title>
      <Card>
        <CardHeader>
          <CardTitle as="h1" className="text-2xl">
            {title}
          </CardTitle>
          {description ? <CardDescription>{description}</CardDescription> : null}
        </CardHeader>
        <CardContent className="grid gap-4">{children}</CardContent>
        {footer ? <CardFooter className="justify-center border-t pt-5 text-sm">{footer}</CardFooter> : null}
      </Card>
    </div>
  );
}

function Problem({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="flex items-start gap-2 rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive">
      <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
      <span>{children}</span>
    </p>
  );
}

const backToSignIn = (
  <Link to="/auth" className="font-medium text-primary underline-offset-4 hover:underline">
    Back to sign in
  </Link>
);

/** /forgot-password: the email, then the same confirmation whoever it belongs to. */
export function ForgotPasswordPage() {
  const request = useRequestResetLink();
  const form = useForm<z.input<typeof passwordResetRequestSchema>, unknown, z.output<typeof passwordResetRequestSchema>>({
    resolver: zodResolver(passwordResetRequestSchema),
    defaultValues: { email: '' },
  });

  if (request.isSuccess) {
    return (
      <ResetCard title="Check your email" footer={backToSignIn}>
        <p role="status" className="flex items-start gap-3 text-sm">
          <MailCheck className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
          <span>{request.data.message}</span>
        </p>
        <Button variant="outline" onClick={() => request.reset()}>
          Send another link
        </Button>
      </ResetCard>
    );
  }

  return (
    <ResetCard title="Forgot your password?" description="Enter the email you signed up with and we'll send you a link to choose a new password." footer={backToSignIn}>
      <form noValidate aria-label="Forgot password" className="grid gap-4" onSubmit={form.handleSubmit(({ email }) => request.mutate(email))}>
        <Field id="reset-email" label="Email" error={form.formState.errors.email?.message}>
          {(control) => <Input {...control} type="email" autoComplete="email" placeholder="you@example.com" {...form.register('email')} />}
        </Field>
        {request.isError ? <Problem>{messageOf(request.error)}</Problem> : null}
        <Button type="submit" size="lg" className="w-full" disabled={request.isPending}>
          {request.isPending ? 'Sending…' : 'Send reset link'}
        </Button>
      </form>
    </ResetCard>
  );
}

const linkProblems: Record<Exclude<PasswordResetLinkStatus, 'valid'>, { title: string; message: string }> = {
  expired: { title: 'This link has expired', message: passwordResetMessages.expired },
  used: { title: 'This link has already been used', message: passwordResetMessages.used },
  superseded: { title: 'This link no longer works', message: passwordResetMessages.superseded },
  invalid: { title: 'This link is not valid', message: passwordResetMessages.invalid },
};
/** The link stopped working between the page's check and the submit (used in another tab, or expired meanwhile). */
const isLinkProblem = (error: Error) => Object.values(linkProblems).some(({ message }) => message === messageOf(error));
const askAgain = (
  <Link to="/forgot-password" className={cn(buttonVariants({ size: 'lg' }), 'w-full')}>
    Send me a new link
  </Link>
);

/** /reset-password?token=…: says at once when the link no longer works, else asks for the new password. */
export function ResetPasswordPage({ token }: { token: string }) {
  const status = useResetLinkStatus(token);
  const reset = useResetPassword(token);
  const form = useForm<z.input<typeof newPasswordSchema>, unknown, z.output<typeof newPasswordSchema>>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: '', password_confirmation: '' },
  });
  const { errors } = form.formState;

  if (reset.isSuccess) {
    return (
      <ResetCard title="Password changed">
        <p role="status" className="flex items-start gap-3 text-sm">
          <ShieldCheck className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
          <span>{reset.data.message}</span>
        </p>
        <Link to="/auth" className={cn(buttonVariants({ size: 'lg' }), 'w-full')}>
          Sign in with your new password
        </Link>
      </ResetCard>
    );
  }
  if (token !== '' && status.isPending) {
    return (
      <ResetCard title="Choose a new password">
        <Spinner className="mx-auto" label="Checking your link" />
      </ResetCard>
    );
  }
  if (status.isError) {
    return (
      <ResetCard title="Choose a new password" footer={backToSignIn}>
        <Problem>{messageOf(status.error)}</Problem>
      </ResetCard>
    );
  }
  const linkStatus: PasswordResetLinkStatus = token === '' ? 'invalid' : (status.data ?? 'invalid');
  if (linkStatus !== 'valid') {
    const problem = linkProblems[linkStatus];
    return (
      <ResetCard title={problem.title} footer={backToSignIn}>
        <Problem>{problem.message}</Problem>
        {askAgain}
      </ResetCard>
    );
  }

  return (
    <ResetCard title="Choose a new password" description="At least 6 characters, with an uppercase and a lowercase letter. Every device signed in to your account will be signed out." footer={backToSignIn}>
      <form noValidate aria-label="Choose a new password" className="grid gap-4" onSubmit={form.handleSubmit((values) => reset.mutate(values))}>
        <Field id="reset-password" label="New password" error={errors.password?.message}>
          {(control) => <PasswordInput {...control} autoComplete="new-password" {...form.register('password')} />}
        </Field>
        <Field id="reset-password-confirmation" label="Confirm new password" error={errors.password_confirmation?.message}>
          {(control) => <PasswordInput {...control} autoComplete="new-password" {...form.register('password_confirmation')} />}
        </Field>
        {reset.isError ? <Problem>{messageOf(reset.error)}</Problem> : null}
        {reset.isError && isLinkProblem(reset.error) ? askAgain : null}
        <Button type="submit" size="lg" className="w-full" disabled={reset.isPending}>
          {reset.isPending ? 'Saving…' : 'Set new password'}
        </Button>
      </form>
    </ResetCard>
  );
}
