import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ResetPasswordPage } from '@/features/auth/components/password-reset-pages';

// The mailed link: /reset-password?token=… (the query string is not in the server's request log).
export const Route = createFileRoute('/reset-password')({
  validateSearch: z.object({ token: z.string().max(200).catch('').default('') }),
  component: ResetPasswordRoute,
});

function ResetPasswordRoute() {
  const { token } = Route.useSearch();
  return <ResetPasswordPage token={token} />;
}
