import { type ReactNode, useSyncExternalStore } from 'react';
import { placementForNewToast, type ToastPlacement } from './toast-placement';

// One toast visible at a time (SPEC.md §9): a new toast replaces the one on screen.
const TOAST_LIMIT = 1;
// A dismissed toast stays in the list, closed, this long before it is removed (SPEC.md §9).
const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const DEFAULT_TOAST_DURATION_MS = 5000;

export type ToastInput = {
  title: string;
  description?: ReactNode;
  variant?: 'default' | 'destructive';
  /** How long the toast stays on screen, in ms (SPEC.md §9 names one per message). */
  duration?: number;
};

export type ToastItem = ToastInput & { id: string; open: boolean; placement: ToastPlacement };

let toasts: ToastItem[] = [];
let nextId = 0;
const listeners = new Set<() => void>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

function publish(next: ToastItem[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

export function toast(input: ToastInput): { id: string; dismiss: () => void } {
  nextId += 1;
  const id = String(nextId);
  publish([{ ...input, id, open: true, placement: placementForNewToast() }, ...toasts].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

export function dismissToast(id: string) {
  publish(toasts.map((t) => (t.id === id ? { ...t, open: false } : t)));
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      publish(toasts.filter((t) => t.id !== id));
    }, TOAST_REMOVE_DELAY_MS),
  );
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts(): ToastItem[] {
  return useSyncExternalStore(subscribe, () => toasts);
}
