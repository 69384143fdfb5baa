import { useEffect } from 'react';
import { toast } from './use-toast';

/**
 * Shows `description` as an 'Error' toast once each time a query fails (`failedAt` is when, 0 while it has not):
 * for the reads whose failure SPEC.md §8 announces as a toast.
 */
export function useErrorToast(failedAt: number, description: string): void {
  useEffect(() => {
    if (failedAt) toast({ title: 'Error', description, variant: 'destructive' });
  }, [failedAt, description]);
}
