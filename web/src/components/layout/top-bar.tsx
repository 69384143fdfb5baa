import { Link } from '@tanstack/react-router';
import { LayoutGrid, LoaderCircle, LogIn, LogOut, Menu, Package, Settings, User as UserIcon, Briefcase, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Avatar, AvatarFallback } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { useLogoutMutation, useUser } from '@/features/auth/api';
import { initialsOf } from '@/lib/initials';
import { cn } from '@/lib/utils';
import { AppLink, usePathname } from './nav-link';
import { isActivePath, navigationItems } from './navigation';

/** The sticky bar on every screen (SPEC.md §2): product name, items, and Sign In or the account menu. */
export function TopBar() {
  const pathname = usePathname();
  const [menuOpen, setMenuOpen] = useState(false);

  // The phone menu closes once the visitor has gone somewhere.
  useEffect(() => setMenuOpen(false), [pathname]);

  return (
    <header className="sticky top-0 z-40 border-b bg-card/85 backdrop-blur supports-[backdrop-filter]:bg-card/75">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-4 sm:gap-4 sm:px-6">
        <Link to="/" className="flex shrink-0 items-center gap-2 rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
          {/* Under 360 px the mark gives way, so the name, BETA, Sign In and the menu fit a 320 px phone without scrolling sideways. */}
          <span className="hidden size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground min-[360px]:flex">
            <LayoutGrid className="size-4" aria-hidden />
          </span>
          <span className="text-lg font-semibold tracking-tight">Card Grader</span>
          <Badge variant="accent" className="px-2 text-[0.65rem] tracking-wider">
            BETA
          </Badge>
        </Link>

        <nav aria-label="Main" className="hidden flex-1 items-center gap-1 lg:flex">
          {navigationItems.map((item) => {
            const active = isActivePath(pathname, item.to);
            return (
              <AppLink
                key={item.to}
                to={item.to}
                // Grade Cards on the home page starts over with a full reload (SPEC.md §2).
                reloadDocument={item.to === '/' && pathname === '/'}
                className={cn(
                  'rounded-md px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                  active ? 'bg-accent text-accent-foreground' : 'text-muted-foreground hover:bg-secondary hover:text-foreground',
                )}
                aria-current={active ? 'page' : undefined}
              >
                {item.label}
              </AppLink>
            );
          })}
        </nav>

        <div className="ml-auto flex items-center gap-1 sm:gap-2">
          <AccountArea />
          <Button
            variant="ghost"
            size="icon"
            className="lg:hidden [&_svg]:size-5"
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <X aria-hidden /> : <Menu aria-hidden />}
          </Button>
        </div>
      </div>

      {menuOpen ? (
        <nav id="mobile-menu" aria-label="Main" className="border-t bg-card px-4 py-3 lg:hidden">
          <ul className="grid grid-cols-2 gap-2">
            {navigationItems.map((item) => {
              const active = isActivePath(pathname, item.to);
              const Icon = item.icon;
              return (
                <li key={item.to}>
                  <AppLink
                    to={item.to}
                    reloadDocument={item.to === '/' && pathname === '/'}
                    onClick={() => setMenuOpen(false)}
                    aria-current={active ? 'page' : undefined}
                    className={cn(
                      'flex items-center gap-2 rounded-lg border px-3 py-3 text-sm font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                      active ? 'border-primary/30 bg-accent text-accent-foreground' : 'bg-card hover:bg-secondary',
                    )}
                  >
                    <Icon className="size-4 shrink-0" aria-hidden />
                    {item.label}
                  </AppLink>
                </li>
              );
            })}
          </ul>
        </nav>
      ) : null}
    </header>
  );
}

function AccountArea() {
  const { user, isPending } = useUser();
  const logout = useLogoutMutation();

  if (isPending) return <span className="size-9" aria-hidden />;
  if (!user) {
    return (
      <Button asChild size="sm">
        <Link to="/auth">
          <LogIn className="hidden sm:block" aria-hidden />
          Sign In
        </Link>
      </Button>
    );
  }

  const name = [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username;
  return (
    // Not modal: a modal menu hides the rest of the page with aria-hidden while its links stay focusable.
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" className="h-10 gap-2 px-1.5 sm:px-2" aria-label={`My Account: ${user.username}`}>
          <Avatar className="size-8 text-xs">
            <AvatarFallback>{initialsOf(name)}</AvatarFallback>
          </Avatar>
          <span className="hidden max-w-36 truncate text-sm font-medium sm:inline">{user.username}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-56">
        <DropdownMenuLabel className="grid gap-0.5">
          <span>My Account</span>
          <span className="truncate text-xs font-normal text-muted-foreground">{user.username}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuGroup>
          <DropdownMenuItem asChild>
            <AppLink to="/collection">
              <LayoutGrid aria-hidden />
              My Collection
            </AppLink>
          </DropdownMenuItem>
          <DropdownMenuItem asChild>
            <AppLink to="/portfolio">
              <Briefcase aria-hidden />
              My Portfolio
            </AppLink>
          </DropdownMenuItem>
          <DropdownMenuItem asChild>
            <AppLink to="/orders">
              <Package aria-hidden />
              My Orders
            </AppLink>
          </DropdownMenuItem>
          <DropdownMenuItem asChild>
            <Link to="/profile">
              <UserIcon aria-hidden />
              Profile
            </Link>
          </DropdownMenuItem>
          <DropdownMenuItem asChild>
            <AppLink to="/settings">
              <Settings aria-hidden />
              Settings
            </AppLink>
          </DropdownMenuItem>
        </DropdownMenuGroup>
        <DropdownMenuSeparator />
        <DropdownMenuItem
          disabled={logout.isPending}
          // Keep the menu open so the pending label stays visible.
          onSelect={(event) => {
            event.preventDefault();
            logout.mutate();
          }}
        >
          {logout.isPending ? <LoaderCircle className="animate-spin" aria-hidden /> : <LogOut aria-hidden />}
          {logout.isPending ? 'Logging out...' : 'Logout'}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
