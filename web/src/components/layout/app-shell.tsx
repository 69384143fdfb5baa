import { Outlet } from '@tanstack/react-router';
import { Toaster } from '@/components/ui/toaster';
import { AchievementNotification } from '@/features/achievements/components/achievement-notification';
import { ImportsLiveChannel } from '@/features/import/live-imports';
import { Footer } from './footer';
import { TopBar } from './top-bar';

/** Every screen: top bar, the page, footer, and the toaster; imports followed live wherever the user is. */
export function AppShell() {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-card px-4 py-2 text-sm font-medium shadow focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:outline-none focus:ring-2 focus:ring-ring"
      >
        Skip to content
      </a>
      <TopBar />
      <main id="main" tabIndex={-1} className="flex flex-1 flex-col outline-none">
        <Outlet />
      </main>
      <Footer />
      <Toaster />
      <AchievementNotification />
      <ImportsLiveChannel />
    </div>
  );
}
