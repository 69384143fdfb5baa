import { Navigate, useLocation } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { Spinner } from '@/components/ui/spinner';
import { useUser } from '@/features/auth/api';

/**
 * Renders its page for a signed-in user (SPEC.md §2): a spinner while the user loads, otherwise a
 * redirect to /auth. `comeBack` adds returnTo, for screens that send the visitor back after sign-in.
 */
export function ProtectedRoute({ children, comeBack = false }: { children: ReactNode; comeBack?: boolean }) {
  const { user, isPending } = useUser();
  // The page that was asked for, as it was when this page first rendered: while the redirect is under way the
  // current location is already /auth?returnTo=…, which would otherwise redirect again with itself, for ever.
  const href = useLocation({ select: (location) => location.href });
  const [here] = useState(href);

  if (isPending) {
    return (
      <div className="flex min-h-[50vh] items-center justify-center">
        <Spinner className="size-8" label="Checking your account" />
      </div>
    );
  }
  if (!user) return <Navigate to="/auth" search={comeBack ? { returnTo: here } : {}} replace />;
  return children;
}
