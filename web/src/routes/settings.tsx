import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { SettingsPage } from '@/features/settings/components/settings-page';
import { SETTINGS_TABS } from '@/features/settings/tabs';

export const Route = createFileRoute('/settings')({
  validateSearch: z.object({ tab: z.enum(SETTINGS_TABS).optional().catch(undefined) }),
  component: SettingsRoute,
});

function SettingsRoute() {
  const { tab } = Route.useSearch();
  return <SettingsPage tab={tab ?? 'general'} />;
}
