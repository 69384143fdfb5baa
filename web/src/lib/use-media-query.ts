import { useSyncExternalStore } from 'react';

/** Whether the window matches a CSS media query now, following it as the window is resized or turned. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Tailwind's `lg` breakpoint: from here the result screen has two columns. */
export const WIDE_SCREEN = '(min-width: 1024px)';
