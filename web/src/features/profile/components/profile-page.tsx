import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { ArrowLeft, LogOut, Pencil } from 'lucide-react';
import type { ReactNode } from 'react';
import type { ProviderProfile, User } from '@contracts/auth';
import { AppLink } from '@/components/layout/nav-link';
import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useLogoutMutation, useUser } from '@/features/auth/api';
import { initialsOf } from '@/lib/initials';
import { providerProfileQueryOptions } from '../api';
import { GradingStats, ProfileBadges } from './profile-achievements';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

function displayName(user: User, profile: ProviderProfile | null): string {
  const fromParts = [user.first_name, user.last_name].filter(Boolean).join(' ');
  return profile?.full_name || fromParts || user.username;
}

function roleOf(profile: ProviderProfile | null): string {
  return profile?.role || profile?.roles[0]?.name || 'Member';
}

/** /profile: the signed-in account, as the provider knows it. Rendered inside the protected-route wrapper. */
export function ProfilePage() {
  const { user } = useUser();
  const navigate = useNavigate();
  const logout = useLogoutMutation();
  const profileQuery = useQuery({ ...providerProfileQueryOptions, enabled: Boolean(user?.agsCardToken) });
  if (!user) return null;

  const profile = profileQuery.data ?? null;
  const loadingProfile = profileQuery.isLoading;
  const name = displayName(user, profile);
  const roles = profile && profile.roles.length > 0 ? profile.roles.map((r) => r.name) : [roleOf(profile)];
  const value = (text: ReactNode) => (loadingProfile ? <Skeleton className="h-5 w-32" /> : text);

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-8 sm:py-12">
      <title>Profile · Card Grader</title>
      <Button variant="ghost" className="-ml-3 mb-4" asChild>
        <Link to="/">
          <ArrowLeft aria-hidden />
          Back to Home
        </Link>
      </Button>

      <div className="grid items-start gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader className="flex-row flex-wrap items-center gap-4 sm:flex-nowrap">
            <Avatar className="size-16 text-xl">
              {profile?.profile_image ? <AvatarImage src={profile.profile_image} alt="" /> : null}
              <AvatarFallback>{initialsOf(name)}</AvatarFallback>
            </Avatar>
            <div className="grid min-w-0 gap-1">
              <CardTitle as="h1" className="truncate text-2xl">
                {name}
              </CardTitle>
              <CardDescription className="truncate">{profile?.email ?? user.email}</CardDescription>
              <div className="mt-1 flex flex-wrap gap-1.5">
                {roles.map((role) => (
                  <Badge key={role} variant="accent">
                    {role}
                  </Badge>
                ))}
              </div>
            </div>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-x-6 gap-y-5 border-t pt-6 sm:grid-cols-2">
              <Detail term="Username">{profile?.username ?? user.username}</Detail>
              <Detail term="Phone">{value(profile?.phone ?? user.phone ?? notProvided)}</Detail>
              <Detail term="Customer number">{value(profile?.customer_number ?? notProvided)}</Detail>
              <Detail term="Payment customer ID">{value(profile?.stripe_id ?? notProvided)}</Detail>
            </dl>
          </CardContent>
          <CardFooter className="flex-wrap gap-3">
            <Button variant="outline" asChild>
              <AppLink to="/settings">
                <Pencil aria-hidden />
                Edit Profile
              </AppLink>
            </Button>
            <Button
              variant="outline"
              className="text-destructive hover:text-destructive"
              disabled={logout.isPending}
              onClick={() => logout.mutate(undefined, { onSuccess: () => void navigate({ to: '/auth' }) })}
            >
              <LogOut aria-hidden />
              {logout.isPending ? 'Logging out...' : 'Logout'}
            </Button>
          </CardFooter>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Account Information</CardTitle>
            <CardDescription>Your account with the grading provider</CardDescription>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-5">
              <Detail term="Wallet balance">{value(profile ? usd.format(profile.wallet.balance) : notProvided)}</Detail>
              <Detail term="Role">{value(roleOf(profile))}</Detail>
              <Detail term="Marketing">
                {value(profile ? (profile.is_marketing_notifications_enabled ? 'Subscribed' : 'Not Subscribed') : notProvided)}
              </Detail>
              <Detail term="Provider account ID">{value(profile?.id ?? notProvided)}</Detail>
            </dl>
          </CardContent>
        </Card>

        <div className="grid gap-6 lg:col-span-2">
          <GradingStats />
        </div>
        <ProfileBadges />
      </div>
    </div>
  );
}

const notProvided = <span className="text-muted-foreground">Not provided</span>;

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid min-w-0 gap-1">
      <dt className="text-sm text-muted-foreground">{term}</dt>
      <dd className="break-words font-medium">{children}</dd>
    </div>
  );
}
