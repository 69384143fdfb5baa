import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { SETTINGS_TABS, SettingsPage } from '@/features/settings/components/settings-page';

export const Route = createFileRoute('/settings')({
  validateSearch: z.object({ tab: z.enum(SETTINGS_TABS).optional().catch(undefined) }),
  component: SettingsRoute,
});

function SettingsRoute() {
  const { tab } = Route.useSearch();
  return <SettingsPage tab={tab ?? 'general'} />;
}
