import type { AccountSettings } from '@contracts/account';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { useMarketingPreferenceMutation } from '../api';

/** Notifications: with the built-in provider, the marketing preference changes here (SPEC.md §5's label). */
export function NotificationsTab({ settings }: { settings: AccountSettings }) {
  const marketing = useMarketingPreferenceMutation();
  const checked = marketing.isPending ? Boolean(marketing.variables) : settings.is_marketing_notifications_enabled;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Notifications</CardTitle>
        <CardDescription>What we may send you</CardDescription>
      </CardHeader>
      <CardContent>
        {settings.provider.managedHere ? (
          <div className="flex items-start justify-between gap-4 rounded-lg border p-4">
            <div className="grid gap-1">
              <Label htmlFor="settings-marketing">Marketing Notifications</Label>
              <p id="settings-marketing-hint" className="text-sm text-muted-foreground">
                Receive promotional offers and updates from the provider
              </p>
            </div>
            <Switch
              id="settings-marketing"
              aria-describedby="settings-marketing-hint"
              checked={checked}
              disabled={marketing.isPending}
              onCheckedChange={(value) => marketing.mutate(value)}
            />
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">Notification preferences are managed at the provider (AGSCard).</p>
        )}
      </CardContent>
    </Card>
  );
}
