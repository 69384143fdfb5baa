import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from '@tanstack/react-router';
import { LogOut, ShieldCheck } from 'lucide-react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { changePasswordSchema, type AccountSettings, type ChangePasswordInput } from '@contracts/account';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { useLogoutMutation } from '@/features/auth/api';
import { PasswordInput } from '@/features/auth/components/password-input';
import { useChangePasswordMutation, useSignOutEverywhereMutation } from '../api';
import { PersonalDataCard } from './personal-data-card';

/**
 * Security: the connected account, the password (here, with the built-in provider), Sign Out and sign out everywhere,
 * and the person's data (with the built-in provider, which keeps it here).
 */
export function SecurityTab({ settings }: { settings: AccountSettings }) {
  const navigate = useNavigate();
  const logout = useLogoutMutation();
  const everywhere = useSignOutEverywhereMutation();
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle as="h2">Connected Account</CardTitle>
          <CardDescription>The grading provider that keeps your account</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-wrap items-center gap-3">
          <Badge variant="accent">
            <ShieldCheck className="size-3" aria-hidden />
            AGSCard account connected
          </Badge>
          <span className="text-sm text-muted-foreground">{settings.email}</span>
        </CardContent>
      </Card>

      {settings.provider.managedHere ? (
        <ChangePasswordCard />
      ) : (
        <Card>
          <CardHeader>
            <CardTitle as="h2">Password</CardTitle>
            <CardDescription>Your password is changed at the provider (AGSCard).</CardDescription>
          </CardHeader>
        </Card>
      )}

      <Card>
        <CardHeader>
          <CardTitle as="h2">Sessions</CardTitle>
          <CardDescription>Sign out of this browser, or of every device where you are signed in.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-3">
          <Button variant="outline" disabled={logout.isPending} onClick={() => logout.mutate(undefined, { onSuccess: () => void navigate({ to: '/auth' }) })}>
            <LogOut aria-hidden />
            {logout.isPending ? 'Logging out...' : 'Sign Out'}
          </Button>
          <AlertDialog>
            <AlertDialogTrigger asChild>
              <Button variant="destructive" disabled={everywhere.isPending}>
                {everywhere.isPending ? 'Signing out...' : 'Sign Out of All Devices'}
              </Button>
            </AlertDialogTrigger>
            <AlertDialogContent>
              <AlertDialogHeader>
                <AlertDialogTitle>Sign out of all devices?</AlertDialogTitle>
                <AlertDialogDescription>Every browser signed in to your account, this one included, will need to sign in again.</AlertDialogDescription>
              </AlertDialogHeader>
              <AlertDialogFooter>
                <AlertDialogCancel>Cancel</AlertDialogCancel>
                <AlertDialogAction onClick={() => everywhere.mutate(undefined, { onSuccess: () => void navigate({ to: '/auth' }) })}>Sign Out Everywhere</AlertDialogAction>
              </AlertDialogFooter>
            </AlertDialogContent>
          </AlertDialog>
        </CardContent>
      </Card>

      {settings.provider.managedHere && <PersonalDataCard settings={settings} />}
    </div>
  );
}

function ChangePasswordCard() {
  const change = useChangePasswordMutation();
  const form = useForm<z.input<typeof changePasswordSchema>, unknown, ChangePasswordInput>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { current_password: '', password: '', password_confirmation: '' },
  });
  const { errors } = form.formState;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Change Password</CardTitle>
        <CardDescription>Every other device signed in to your account is signed out when you change it.</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          aria-label="Change password"
          className="grid max-w-md gap-4"
          onSubmit={form.handleSubmit((values) => change.mutate(values, { onSuccess: () => form.reset() }))}
        >
          <Field id="settings-current-password" label="Current password" error={errors.current_password?.message}>
            {(control) => <PasswordInput {...control} autoComplete="current-password" {...form.register('current_password')} />}
          </Field>
          <Field id="settings-new-password" label="New password" error={errors.password?.message}>
            {(control) => <PasswordInput {...control} autoComplete="new-password" {...form.register('password')} />}
          </Field>
          <Field id="settings-confirm-password" label="Confirm new password" error={errors.password_confirmation?.message}>
            {(control) => <PasswordInput {...control} autoComplete="new-password" {...form.register('password_confirmation')} />}
          </Field>
          <div>
            <Button type="submit" disabled={change.isPending}>
              {change.isPending ? 'Changing password...' : 'Change Password'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
