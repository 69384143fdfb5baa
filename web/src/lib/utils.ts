import { type ClassValue, clsx } from 'clsx';
import { twMerge } from 'tailwind-merge';

/** Joins class names, letting a later Tailwind class override an earlier one of the same kind. */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}

// System error codes a server may keep in a reason it recorded ("could not be reached (ENOTFOUND)"): the words
// around them say it already, and the code means nothing to a collector.
const SYSTEM_ERROR_CODE = /\s*\((?:E[A-Z0-9_]{3,}|UND_ERR_[A-Z_]+|ERR_[A-Z_]+)\)/g;

/** A reason in plain words: internal error codes taken out. */
export function plainReason(text: string): string {
  return text.replace(SYSTEM_ERROR_CODE, '');
}
