import { Link, useRouterState } from '@tanstack/react-router';
import type { ComponentProps } from 'react';

/**
 * A link to one of the app's own paths given as a plain string, so the top bar and menus can point at
 * a screen whose route a later issue adds (until then the path shows the 404 screen).
 * Extra props (from a menu item's `asChild`, say) pass through to the anchor.
 */
export function AppLink({
  to,
  reloadDocument,
  ...anchorProps
}: Omit<ComponentProps<'a'>, 'href'> & { to: string; reloadDocument?: boolean }) {
  return (
    <Link
      {...anchorProps}
      // The route tree types only the routes that exist today; the path is checked at run time instead.
      to={to as '/'}
      reloadDocument={reloadDocument}
      activeOptions={{ exact: true, includeSearch: false }}
    />
  );
}

export function usePathname(): string {
  return useRouterState({ select: (state) => state.location.pathname });
}
