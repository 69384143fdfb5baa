import { Link } from '@tanstack/react-router';
import { Info } from 'lucide-react';

/** SPEC.md §2: a guest browsing a signed-in screen is told their data is not kept, with the way to an account. */
export function GuestNotice({ screen, returnTo, linkText }: { screen: string; returnTo: string; linkText: string }) {
  return (
    <div role="note" className="flex items-start gap-3 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
      <Info className="mt-0.5 size-4 shrink-0" aria-hidden />
      <p>
        You're browsing {screen} without an account. Your data won't be saved permanently.{' '}
        <Link to="/auth" search={{ returnTo }} className="font-semibold underline underline-offset-4">
          {linkText}
        </Link>
      </p>
    </div>
  );
}
