import { Download, Pencil, RotateCcw } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import type { ImportRecord, ImportRowView, RowStatus } from '@contracts/imports';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import { failedRowsCsvUrl, IMPORT_ROWS_PAGE_SIZE, useEditImportRowMutation, useImportActionMutation, useImportRows } from '../api';

// Every row of an import with what became of it (GET /api/imports/{id}/rows): its number in the file, its URLs, and
// a failure's or a duplicate's reason in plain words. Once the import has finished, a failed row's URLs can be fixed
// here, the failed rows downloaded as a CSV with the template's columns to fix offline, and retried.

type Filter = RowStatus | 'all';

const FILTERS: readonly { value: Filter; label: string }[] = [
  { value: 'all', label: 'All rows' },
  { value: 'failed', label: 'Failed' },
  { value: 'duplicate', label: 'Duplicates' },
  { value: 'graded', label: 'Graded' },
  { value: 'pending', label: 'Waiting' },
];

const LIST_LABEL: Record<Filter, string> = { all: 'Rows', failed: 'Failed rows', duplicate: 'Duplicate rows', graded: 'Graded rows', pending: 'Waiting rows' };
const STATUS_LABEL: Record<RowStatus, string> = { pending: 'Waiting', graded: 'Graded', duplicate: 'Duplicate', failed: 'Failed' };
const STATUS_VARIANT = { pending: 'secondary', graded: 'default', duplicate: 'outline', failed: 'destructive' } as const;

export function ImportRows({ record, initialFilter, showRetry = true }: { record: ImportRecord; initialFilter: Filter; showRetry?: boolean }) {
  const [filter, setFilter] = useState<Filter>(initialFilter);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<number | null>(null);
  const rows = useImportRows(record.id, filter, page);
  const retry = useImportActionMutation('retry-failed');
  const filterId = useId();
  const finished = record.status !== 'processing';
  const pages = Math.max(1, Math.ceil((rows.data?.total ?? 0) / IMPORT_ROWS_PAGE_SIZE));

  return (
    <section aria-label={`Rows of ${record.fileName}`} className="grid min-w-0 gap-3 rounded-lg border p-3 sm:p-4">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div className="grid gap-1.5">
          <label htmlFor={filterId} className="text-sm font-medium">
            Rows to show
          </label>
          <NativeSelect
            id={filterId}
            value={filter}
            className="w-40"
            onChange={(event) => {
              setFilter(event.target.value as Filter);
              setPage(1);
              setEditing(null);
            }}
          >
            {FILTERS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </NativeSelect>
        </div>
        {finished && record.failedCards > 0 ? (
          <div className="flex flex-wrap gap-2">
            <a href={failedRowsCsvUrl(record.id)} download className={buttonVariants({ variant: 'outline', size: 'sm' })}>
              <Download aria-hidden />
              Download failed rows (CSV)
            </a>
            {showRetry ? (
              <Button size="sm" onClick={() => retry.mutate(record.id)} disabled={retry.isPending}>
                <RotateCcw aria-hidden />
                Retry failed
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>
      {rows.isPending ? (
        <Spinner label="Loading rows" />
      ) : rows.isError ? (
        <p role="alert" className="text-sm text-destructive">
          The rows could not be loaded. {rows.error instanceof ApiError ? rows.error.serverMessage : null}
        </p>
      ) : rows.data.rows.length === 0 ? (
        <p className="text-sm text-muted-foreground">No rows to show.</p>
      ) : (
        <ol className="grid gap-2" aria-label={`${LIST_LABEL[filter]} of ${record.fileName}`}>
          {rows.data.rows.map((row) => (
            <li key={row.row} className="grid min-w-0 gap-1.5 rounded-md bg-muted/40 p-3 text-sm" data-testid="import-row">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-medium">Row {row.row}</span>
                <Badge variant={STATUS_VARIANT[row.status]}>{STATUS_LABEL[row.status]}</Badge>
                {row.itemId ? <span className="text-xs text-muted-foreground">ItemID {row.itemId}</span> : null}
                {finished && row.status === 'failed' && editing !== row.row ? (
                  <Button variant="ghost" size="sm" className="ml-auto" onClick={() => setEditing(row.row)} aria-label={`Edit the URLs of row ${row.row}`}>
                    <Pencil aria-hidden />
                    Edit
                  </Button>
                ) : null}
              </div>
              {row.reason ? <p className={cn(row.status === 'failed' ? 'text-destructive' : 'text-muted-foreground')}>{row.reason}</p> : null}
              {editing === row.row ? (
                <EditRow importId={record.id} row={row} onDone={() => setEditing(null)} />
              ) : (
                <dl className="grid gap-0.5 text-xs text-muted-foreground">
                  <div className="flex min-w-0 gap-1">
                    <dt className="shrink-0">Front:</dt>
                    <dd className="min-w-0 break-all">{row.frontImageUrl ?? '(none)'}</dd>
                  </div>
                  {row.backImageUrl ? (
                    <div className="flex min-w-0 gap-1">
                      <dt className="shrink-0">Back:</dt>
                      <dd className="min-w-0 break-all">{row.backImageUrl}</dd>
                    </div>
                  ) : null}
                </dl>
              )}
            </li>
          ))}
        </ol>
      )}
      {pages > 1 ? (
        <nav aria-label="Pages of rows" className="flex items-center justify-between gap-2 text-sm">
          <Button variant="outline" size="sm" onClick={() => setPage((p) => Math.max(1, p - 1))} disabled={page <= 1}>
            Previous
          </Button>
          <span className="tabular-nums">
            Page {page} of {pages}
          </span>
          <Button variant="outline" size="sm" onClick={() => setPage((p) => Math.min(pages, p + 1))} disabled={page >= pages}>
            Next
          </Button>
        </nav>
      ) : null}
    </section>
  );
}

function EditRow({ importId, row, onDone }: { importId: string; row: ImportRowView; onDone: () => void }) {
  const [front, setFront] = useState(row.frontImageUrl ?? '');
  const [back, setBack] = useState(row.backImageUrl ?? '');
  const edit = useEditImportRowMutation(importId);
  const id = useId();
  const error = edit.error ? ((edit.error instanceof ApiError ? edit.error.serverMessage : undefined) ?? 'The row could not be saved. Please try again.') : undefined;

  function submit(event: FormEvent) {
    event.preventDefault();
    edit.mutate({ row: row.row, frontImageUrl: front, backImageUrl: back.trim() === '' ? null : back }, { onSuccess: onDone });
  }

  return (
    <form onSubmit={submit} className="grid gap-3" aria-label={`Edit row ${row.row}`}>
      <Field id={`${id}-front`} label={`FrontImage URL of row ${row.row}`} error={error}>
        {(control) => <Input {...control} type="text" inputMode="url" autoComplete="off" required value={front} onChange={(event) => setFront(event.target.value)} />}
      </Field>
      <Field id={`${id}-back`} label={`BackImage URL of row ${row.row} (optional)`}>
        {(control) => <Input {...control} type="text" inputMode="url" autoComplete="off" value={back} onChange={(event) => setBack(event.target.value)} />}
      </Field>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={edit.isPending}>
          {edit.isPending ? 'Saving...' : 'Save row'}
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
