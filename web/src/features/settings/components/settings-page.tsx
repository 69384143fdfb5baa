import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Bell, Lock, MapPin, ShieldAlert, User } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useUser } from '@/features/auth/api';
import { AddressBook } from '@/features/addresses/components/address-book';
import { accountSettingsQueryOptions } from '../api';
import type { SettingsTab } from '../tabs';
import { GeneralTab } from './general-tab';
import { NotificationsTab } from './notifications-tab';
import { SecurityTab } from './security-tab';


/** /settings (SPEC.md §2): four tabs; signed out, the access-denied notice instead. */
export function SettingsPage({ tab }: { tab: SettingsTab }) {
  const { user, isPending } = useUser();
  const navigate = useNavigate();
  const settings = useQuery({ ...accountSettingsQueryOptions, enabled: Boolean(user) });

  if (isPending) {
    return (
      <div className="flex min-h-[50vh] items-center justify-center">
        <Spinner className="size-8" label="Checking your account" />
      </div>
    );
  }
  if (!user) {
    return (
      <div className="mx-auto w-full max-w-xl px-4 py-16">
        <title>Settings · Card Grader</title>
        <div role="alert" className="flex items-start gap-3 rounded-xl border border-destructive/40 bg-card p-6">
          <ShieldAlert className="mt-0.5 size-5 shrink-0 text-destructive" aria-hidden />
          <p>
            <strong className="font-semibold">Access Denied:</strong> You must be logged in to access settings.
          </p>
        </div>
      </div>
    );
  }

  const tabs: { value: SettingsTab; label: string; icon: typeof User }[] = [
    { value: 'general', label: 'General', icon: User },
    { value: 'addresses', label: 'Address Book', icon: MapPin },
    { value: 'notifications', label: 'Notifications', icon: Bell },
    { value: 'security', label: 'Security', icon: Lock },
  ];

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-8 sm:py-12">
      <title>Settings · Card Grader</title>
      <h1 className="text-3xl font-bold tracking-tight">Settings</h1>
      <p className="mt-1 text-muted-foreground">Your account, addresses and preferences</p>
      <Tabs value={tab} onValueChange={(value) => void navigate({ to: '/settings', search: { tab: value as SettingsTab }, replace: true })} className="mt-6">
        <TabsList className="grid h-auto w-full grid-cols-2 gap-1 sm:inline-flex sm:w-auto">
          {tabs.map(({ value, label, icon: Icon }) => (
            <TabsTrigger key={value} value={value} className="gap-2">
              <Icon className="size-4" aria-hidden />
              {label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="general">
          <GeneralTab user={user} settings={settings.data} />
        </TabsContent>
        <TabsContent value="addresses">
          <AddressBook />
        </TabsContent>
        <TabsContent value="notifications">
          {settings.data ? <NotificationsTab settings={settings.data} /> : <SettingsLoading />}
        </TabsContent>
        <TabsContent value="security">
          {settings.data ? <SecurityTab settings={settings.data} /> : <SettingsLoading />}
        </TabsContent>
      </Tabs>
    </div>
  );
}

function SettingsLoading() {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Loading</CardTitle>
        <CardDescription>Reading your account settings...</CardDescription>
      </CardHeader>
      <CardContent className="flex justify-center py-8">
        <Spinner className="size-6" label="Loading settings" />
      </CardContent>
    </Card>
  );
}
