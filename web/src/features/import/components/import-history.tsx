import { ChevronDown, RotateCcw, Square, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { ImportRecord } from '@contracts/imports';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useDeleteImportMutation, useImportActionMutation } from '../api';
import { ImportRows } from './import-rows';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'America/New_York' });
const formatWhen = (iso: string | null) => (iso ? dateFormat.format(new Date(iso)) : '—');

const STATUS_LABEL: Record<ImportRecord['status'], string> = { pending: 'Pending', processing: 'Processing', completed: 'Completed', failed: 'Failed', cancelled: 'Cancelled' };
const STATUS_VARIANT = { pending: 'secondary', processing: 'accent', completed: 'default', failed: 'destructive', cancelled: 'outline' } as const;

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

/** 'Import History (n)': every import with its counts, status and dates, its rows; delete (confirmed), cancel, retry failed. */
export function ImportHistory({ imports, isPending }: { imports: ImportRecord[]; isPending: boolean }) {
  const [toDelete, setToDelete] = useState<ImportRecord | null>(null);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((ids) => {
      const next = new Set(ids);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const remove = useDeleteImportMutation();
  const cancel = useImportActionMutation('cancel');
  const retry = useImportActionMutation('retry-failed');

  if (isPending) {
    return (
      <div className="flex justify-center py-10">
        <Spinner label="Loading imports" />
      </div>
    );
  }
  if (imports.length === 0) {
    return (
      <Card>
        <CardContent className="p-8 text-center text-muted-foreground">No imports yet. Upload a spreadsheet on the New Import tab.</CardContent>
      </Card>
    );
  }
  return (
    <>
      <ul className="grid gap-3" aria-label="Imports">
        {imports.map((item) => (
          <li key={item.id}>
            <Card>
              <CardContent className="grid gap-3 p-4 sm:grid-cols-[1fr_auto] sm:items-center">
                <div className="grid gap-2">
                  <div className="flex flex-wrap items-center gap-2">
                    <h3 className="truncate font-medium" title={item.fileName}>{item.fileName}</h3>
                    <Badge variant={STATUS_VARIANT[item.status]}>{STATUS_LABEL[item.status]}</Badge>
                    {item.status === 'processing' ? <span className="text-xs text-muted-foreground tabular-nums">{item.progress}%</span> : null}
                  </div>
                  <dl className="grid grid-cols-4 gap-2 text-sm sm:max-w-md">
                    <Count label="Total" value={item.totalCards} />
                    <Count label="Successful" value={item.successfulCards} />
                    <Count label="Failed" value={item.failedCards} />
                    <Count label="Duplicates" value={item.duplicateCards} />
                  </dl>
                  <p className="text-xs text-muted-foreground">
                    Started {formatWhen(item.createdAt)}
                    {item.completedAt ? <> · Finished {formatWhen(item.completedAt)}</> : null}
                  </p>
                </div>
                <div className="flex flex-wrap gap-2 sm:justify-end">
                  {item.status === 'processing' ? (
                    <Button variant="outline" size="sm" onClick={() => cancel.mutate(item.id)} disabled={cancel.isPending}>
                      <Square aria-hidden />
                      Cancel
                    </Button>
                  ) : null}
                  {item.status !== 'processing' && item.failedCards > 0 ? (
                    <Button variant="outline" size="sm" onClick={() => retry.mutate(item.id)} disabled={retry.isPending}>
                      <RotateCcw aria-hidden />
                      Retry failed
                    </Button>
                  ) : null}
                  <Button variant="outline" size="sm" onClick={() => toggle(item.id)} aria-expanded={open.has(item.id)} aria-label={`Show rows of ${item.fileName}`}>
                    <ChevronDown aria-hidden className={open.has(item.id) ? 'rotate-180' : undefined} />
                    Rows
                  </Button>
                  <Button variant="ghost" size="sm" onClick={() => setToDelete(item)} aria-label={`Delete import ${item.fileName}`}>
                    <Trash2 aria-hidden />
                    Delete
                  </Button>
                </div>
                {open.has(item.id) ? (
                  <div id={`import-rows-${item.id}`} className="sm:col-span-2">
                    <ImportRows record={item} initialFilter={item.failedCards > 0 && item.status !== 'processing' ? 'failed' : 'all'} showRetry={false} />
                  </div>
                ) : null}
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
      <AlertDialog open={toDelete !== null} onOpenChange={(open) => !open && setToDelete(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete this import?</AlertDialogTitle>
            <AlertDialogDescription>
              {toDelete?.fileName} leaves your import history; rows not yet worked on are stopped. Cards already graded stay in your collection and portfolio.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              onClick={() => {
                if (toDelete) remove.mutate(toDelete.id);
                setToDelete(null);
              }}
            >
              Delete
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}
