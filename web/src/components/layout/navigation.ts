import { Briefcase, Camera, FileUp, LayoutGrid, type LucideIcon, MessageSquare, Settings } from 'lucide-react';

/** The top bar's items, in order (SPEC.md §2). Screens of later issues show the 404 screen until they land. */
export const navigationItems: ReadonlyArray<{ to: string; label: string; icon: LucideIcon }> = [
  { to: '/', label: 'Grade Cards', icon: Camera },
  { to: '/collection', label: 'Collection', icon: LayoutGrid },
  { to: '/portfolio', label: 'Portfolio', icon: Briefcase },
  { to: '/import', label: 'Import', icon: FileUp },
  { to: '/feedback', label: 'Feedback', icon: MessageSquare },
  { to: '/settings', label: 'Settings', icon: Settings },
];

/** An item is highlighted on its own path or, except for home, on any path that starts with it (SPEC.md §2). */
export function isActivePath(pathname: string, route: string): boolean {
  return pathname === route || (route !== '/' && pathname.startsWith(route));
}
