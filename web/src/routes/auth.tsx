import { createFileRoute, redirect } from '@tanstack/react-router';
import { z } from 'zod';
import { userQueryOptions } from '@/features/auth/api';
import { AuthPage } from '@/features/auth/components/auth-page';

// returnTo must be a path on this site, never another origin ("//evil.example" or "/\evil.example").
const sameSitePath = z.string().regex(/^\/(?![/\\])/);

export const Route = createFileRoute('/auth')({
  validateSearch: z.object({ returnTo: sameSitePath.optional().catch(undefined) }),
  beforeLoad: async ({ context, search }) => {
    const user = await context.queryClient.ensureQueryData(userQueryOptions).catch(() => null);
    // Already signed in: straight on to where the visitor was going (SPEC.md §2).
    if (user) throw redirect({ href: search.returnTo ?? '/', replace: true });
  },
  component: AuthRoute,
});

function AuthRoute() {
  const { returnTo } = Route.useSearch();
  return <AuthPage returnTo={returnTo} />;
}
