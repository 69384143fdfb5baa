import { hasProviderToken } from '@contracts/auth';
import { Link } from '@tanstack/react-router';
import { LoaderCircle, PackageOpen, ScanSearch } from 'lucide-react';
import { GuestNotice } from '@/components/layout/guest-notice';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { useUser } from '@/features/auth/api';
import { useListSearch } from '@/lib/use-list-search';
import { useMyCards, useRestoreSampleCardsMutation, useSyncInstantGradesMutation } from '../api';
import {
  type CollectionSearch,
  DEFAULT_SORT,
  PAGE_SIZE,
  filterCards,
  hasActiveFilter,
  pageCount,
  sortCards,
} from '../collection-view';
import { collectionCsv, csvFileName } from '../csv-export';
import { CollectionGrid } from './collection-grid';
import { CollectionPagination } from './collection-pagination';
import { CollectionTable } from './collection-table';
import { CollectionToolbar } from './collection-toolbar';
import { saveCsv } from '@/lib/save-file';

const LIST_KEYS = ['q', 'sort', 'price', 'grade'] as const;

/** /collection (SPEC.md §2, §9): the caller's graded cards, searched, filtered, sorted and paged as the URL says. */
export function CollectionPage({ search, onSearchChange }: { search: CollectionSearch; onSearchChange: (next: CollectionSearch) => void }) {
  const { user, isPending: userPending } = useUser();
  const { cards, isPending } = useMyCards();
  const sync = useSyncInstantGradesMutation();

  // Any change of search, filter or sort goes back to page 1 (SPEC.md §4); switching the view keeps the page.
  const change = useListSearch(search, onSearchChange, LIST_KEYS);

  const shown = sortCards(filterCards(cards, search), search.sort ?? DEFAULT_SORT);
  const pages = pageCount(shown.length);
  const page = Math.min(search.page ?? 1, pages);
  const pageCards = shown.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const filtered = hasActiveFilter(search);

  function exportCsv() {
    if (cards.length === 0) {
      toast({ title: 'No Data', description: 'Your collection is empty. Add some cards before exporting.', variant: 'destructive' });
      return;
    }
    try {
      saveCsv(collectionCsv(sortCards(cards, DEFAULT_SORT)), csvFileName(new Date()));
      toast({ title: 'Export Complete', description: `Exported ${cards.length} cards to CSV file.` });
    } catch {
      toast({ title: 'Export Failed', description: 'Failed to export your collection. Please try again.', variant: 'destructive' });
    }
  }

  return (
    <div className="mx-auto grid w-full max-w-7xl content-start gap-6 px-4 py-8 sm:px-6 sm:py-10">
      <title>My Collection · Card Grader</title>
      <header className="grid gap-1">
        <h1 className="text-3xl font-bold tracking-tight">My Collection</h1>
        <p className="text-muted-foreground">Your saved card grades and analysis</p>
      </header>

      {!userPending && !user ? (
        <GuestNotice screen="Collection" returnTo="/collection" linkText="Sign in or create an account" />
      ) : null}

      <CollectionToolbar
        search={search}
        onChange={change}
        onExport={exportCsv}
        exportDisabled={cards.length === 0}
        exportDisabledReason="Export needs at least one card in your collection."
        onSync={() => sync.mutate()}
        syncDisabled={sync.isPending || !hasProviderToken(user)}
        syncDisabledReason={
          sync.isPending ? undefined : user ? 'Sync brings in instant grades from a grading provider: it needs an account linked to one.' : 'Sync needs an account linked to a grading provider: sign in first.'
        }
        syncing={sync.isPending}
      />

      {isPending ? (
        <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3 xl:grid-cols-4" aria-busy="true" aria-label="Loading your collection">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-96 rounded-xl" />
          ))}
        </div>
      ) : (
        <>
          <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground">
            <p aria-live="polite" data-testid="collection-count">
              {shown.length} {shown.length === 1 ? 'card' : 'cards'} shown{filtered ? ` of ${cards.length} total` : ''}
            </p>
            {filtered ? (
              <Button variant="link" size="sm" className="h-auto p-0" onClick={() => change({ q: undefined, price: undefined, grade: undefined })}>
                Clear filters
              </Button>
            ) : null}
          </div>

          {shown.length === 0 ? (
            <EmptyCollection collectionIsEmpty={cards.length === 0} />
          ) : (
            <>
              {search.view === 'list' ? <CollectionTable cards={pageCards} /> : <CollectionGrid cards={pageCards} />}
              <div className="grid gap-3">
                <p className="text-center text-sm text-muted-foreground">
                  Showing {(page - 1) * PAGE_SIZE + 1}-{(page - 1) * PAGE_SIZE + pageCards.length} of {shown.length} cards
                </p>
                <CollectionPagination
                  page={page}
                  count={pages}
                  onPageChange={(next) => {
                    change({ page: next === 1 ? undefined : next });
                    window.scrollTo({ top: 0 });
                  }}
                />
              </div>
            </>
          )}
        </>
      )}
    </div>
  );
}

function EmptyCollection({ collectionIsEmpty }: { collectionIsEmpty: boolean }) {
  const restore = useRestoreSampleCardsMutation();
  return (
    <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed bg-card px-6 py-16 text-center">
      <PackageOpen className="size-10 text-muted-foreground" aria-hidden />
      <h2 className="text-lg font-semibold">No cards found</h2>
      <p className="max-w-md text-sm text-muted-foreground">
        {collectionIsEmpty ? "You haven't added any cards to your collection yet." : 'No cards match your search criteria.'}
      </p>
      {collectionIsEmpty ? (
        <div className="mt-2 flex flex-wrap justify-center gap-2">
          <Button asChild>
            <Link to="/">
              <ScanSearch aria-hidden />
              Grade a Card
            </Link>
          </Button>
          <Button variant="outline" disabled={restore.isPending} onClick={() => restore.mutate()}>
            {restore.isPending ? <LoaderCircle className="animate-spin" aria-hidden /> : null}
            Restore Sample Cards
          </Button>
        </div>
      ) : null}
    </div>
  );
}
