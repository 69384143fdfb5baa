import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from '@tanstack/react-router';
import { Download, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { deleteAccountSchema, personalDataMessages as texts, type AccountSettings, type DeleteAccountInput } from '@contracts/account';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { PasswordInput } from '@/features/auth/components/password-input';
import { ApiError } from '@/lib/api-client';
import { useDeleteAccountMutation, useDownloadMyDataMutation, useLeaderboardOptOutMutation } from '../api';

/** Your Data (issue 34): the leaderboard opt-out, Download my data (Art. 20) and Delete my account (Art. 17). */
export function PersonalDataCard({ settings }: { settings: AccountSettings }) {
  const leaderboard = useLeaderboardOptOutMutation();
  const download = useDownloadMyDataMutation();
  const shown = leaderboard.isPending ? !leaderboard.variables : !settings.leaderboard_opt_out;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Your Data</CardTitle>
        <CardDescription>What we keep about you, and how to take it back</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex items-start justify-between gap-4 rounded-lg border p-4">
          <div className="grid gap-1">
            <Label htmlFor="settings-leaderboard">{texts.leaderboardTitle}</Label>
            <p id="settings-leaderboard-hint" className="text-sm text-muted-foreground">
              {texts.leaderboardDescription}
            </p>
          </div>
          <Switch id="settings-leaderboard" aria-describedby="settings-leaderboard-hint" checked={shown} disabled={leaderboard.isPending} onCheckedChange={(value) => leaderboard.mutate(!value)} />
        </div>
        <div className="flex flex-wrap items-center justify-between gap-4 rounded-lg border p-4">
          <div className="grid gap-1">
            <h3 className="text-sm font-medium">{texts.downloadTitle}</h3>
            <p className="text-sm text-muted-foreground">{texts.downloadDescription}</p>
          </div>
          <Button variant="outline" disabled={download.isPending} onClick={() => download.mutate()}>
            <Download aria-hidden />
            {download.isPending ? texts.downloadPending : texts.downloadButton}
          </Button>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-4 rounded-lg border border-destructive/40 p-4">
          <div className="grid gap-1">
            <h3 className="text-sm font-medium">{texts.deleteTitle}</h3>
            <p className="text-sm text-muted-foreground">{texts.deleteDescription}</p>
          </div>
          <DeleteAccountDialog />
        </div>
      </CardContent>
    </Card>
  );
}

function DeleteAccountDialog() {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const remove = useDeleteAccountMutation();
  const form = useForm<z.input<typeof deleteAccountSchema>, unknown, DeleteAccountInput>({ resolver: zodResolver(deleteAccountSchema), defaultValues: { password: '' } });
  const { errors } = form.formState;
  const submit = form.handleSubmit((values) =>
    remove.mutate(values, {
      onSuccess: () => {
        setOpen(false);
        void navigate({ to: '/' });
      },
      // The server's words where it gave some (a wrong password); the field shows them.
      onError: (error) => form.setError('password', { message: (error instanceof ApiError ? error.serverMessage : undefined) ?? texts.deleteFailed }),
    }),
  );
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) form.reset();
      }}
    >
      <DialogTrigger asChild>
        <Button variant="destructive">
          <Trash2 aria-hidden />
          {texts.deleteTitle}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Delete your account?</DialogTitle>
          <DialogDescription>{texts.deleteDescription} This cannot be undone.</DialogDescription>
        </DialogHeader>
        <form noValidate aria-label="Delete my account" className="grid gap-4" onSubmit={submit}>
          <Field id="settings-delete-password" label="Password" error={errors.password?.message}>
            {(control) => <PasswordInput {...control} autoComplete="current-password" {...form.register('password')} />}
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={remove.isPending}>
              {remove.isPending ? texts.deletePending : texts.deleteConfirm}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
