import { type ClassValue, clsx } from 'clsx';
import { twMerge } from 'tailwind-merge';

/** Joins class names, letting a later Tailwind class override an earlier one of the same kind. */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}

// A reason in plain words: the server's own rule, which it applies to the reasons it records too.
export { plainReason } from '@contracts/errors';
