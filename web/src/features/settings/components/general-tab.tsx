import { ExternalLink } from 'lucide-react';
import type { AccountSettings } from '@contracts/account';
import type { User } from '@contracts/auth';
import { AppLink } from '@/components/layout/nav-link';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

/** General (SPEC.md §2): username and email, read-only; the profile itself lives with the provider. */
export function GeneralTab({ user, settings }: { user: User; settings: AccountSettings | undefined }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">General</CardTitle>
        <CardDescription>Your account details</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-2">
          <Label htmlFor="settings-username">Username</Label>
          <Input id="settings-username" value={settings?.username ?? user.username} readOnly />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="settings-email">Email</Label>
          <Input id="settings-email" value={settings?.email ?? user.email} readOnly />
        </div>
        <p className="text-sm text-muted-foreground">
          {settings?.provider.managedHere
            ? 'Your profile is kept by Card Grader, the built-in AGSCard provider. Your username comes from your name; your email signs you in.'
            : 'Your profile is managed at the provider (AGSCard).'}
        </p>
        <div>
          <Button variant="outline" asChild>
            <AppLink to="/profile">
              <ExternalLink aria-hidden />
              View Profile
            </AppLink>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
