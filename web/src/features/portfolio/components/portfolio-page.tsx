import type { PortfolioCard } from '@contracts/portfolio';
import { Link } from '@tanstack/react-router';
import { Download, LogIn, PackageOpen, Plus } from 'lucide-react';
import { useCallback, useState, type DragEvent } from 'react';
import { GuestNotice } from '@/components/layout/guest-notice';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { SearchInput } from '@/components/ui/search-input';
import { SortSelect } from '@/components/ui/sort-select';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { isPortfolioPhoto } from '../portfolio-photos';
import { CollectionPagination } from '@/features/collection/components/collection-pagination';
import { pageCount } from '@/features/collection/collection-view';
import { useListSearch } from '@/lib/use-list-search';
import { usePortfolio, useValueHistory } from '../api';
import { portfolioCsv, portfolioCsvFileName } from '../csv-export';
import { DEFAULT_SORT, PAGE_SIZE, filterPortfolio, sortOptions, sortPortfolio, summarise, type PortfolioSearch } from '../portfolio-view';
import { AddCardsDialog, type AddMode } from './add-cards-dialog';
import { DeleteCardDialog } from './delete-card-dialog';
import { ImageViewer, type ViewedImages } from './image-viewer';
import { PortfolioCardList, PortfolioTable } from './portfolio-list';
import { SummaryCards } from './summary-cards';
import { ValueChart } from './value-chart';
import { saveCsv } from '@/lib/save-file';

const LIST_KEYS = ['q', 'graded', 'sort'] as const;

const hasImages = (event: DragEvent) => [...event.dataTransfer.items].some((item) => item.kind === 'file' && (item.type.startsWith('image/') || item.type === ''));

/** /portfolio (SPEC.md §2, §9): summary, value chart, search, graded only, sort, the list in pages of 100. */
export function PortfolioPage({ search, onSearchChange }: { search: PortfolioSearch; onSearchChange: (next: PortfolioSearch) => void }) {
  const { cards, isPending, user, userPending } = usePortfolio();
  const history = useValueHistory(Boolean(user));
  const [addOpen, setAddOpen] = useState(false);
  const [mode, setMode] = useState<AddMode>('upload');
  const [files, setFiles] = useState<File[]>([]);
  const [editingId, setEditingId] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<PortfolioCard | null>(null);
  const [viewing, setViewing] = useState<ViewedImages | null>(null);
  const [dragging, setDragging] = useState(false);
  // A guest's portfolio is not kept (the server refuses the add), so a guest is asked to sign in instead of being
  // offered an Add dialog whose Add fails.
  const guest = !userPending && !user;

  // Any change of search, filter or sort goes back to page 1 (SPEC.md §9).
  const change = useListSearch(search, onSearchChange, LIST_KEYS);

  const shown = sortPortfolio(filterPortfolio(cards, search), search.sort ?? DEFAULT_SORT);
  const pages = pageCount(shown.length);
  const page = Math.min(search.page ?? 1, pages);
  const pageCards = shown.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);

  function exportCsv() {
    if (cards.length === 0) {
      toast({ title: 'No Data', description: 'Your portfolio is empty. Add some cards before exporting.', variant: 'destructive' });
      return;
    }
    saveCsv(portfolioCsv(sortPortfolio(cards, DEFAULT_SORT)), portfolioCsvFileName(new Date()));
    toast({ title: 'Export Complete', description: `Exported ${cards.length} cards to CSV file.` });
  }

  const listProps = { cards: pageCards, editingId, onEdit: setEditingId, onDelete: setDeleting, onView: setViewing };

  return (
    <div
      className="relative mx-auto grid w-full max-w-7xl grid-cols-[minmax(0,1fr)] content-start gap-6 px-4 py-8 sm:px-6 sm:py-10"
      data-testid="portfolio-page"
      // One column no wider than the screen: a grid's implicit column grows to its widest content (a long card name
      // once made the page 580 px wide on a 390 px phone).
      // Images dropped anywhere on the page open the Add dialog in upload mode (SPEC.md §2).
      onDragOver={(event) => {
        if (!user || !hasImages(event)) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(event) => {
        if (event.currentTarget === event.target) setDragging(false);
      }}
      onDrop={(event) => {
        setDragging(false);
        if (!user) return;
        const dropped = [...event.dataTransfer.files].filter(isPortfolioPhoto);
        if (dropped.length === 0) return;
        event.preventDefault();
        setFiles((current) => [...current, ...dropped]);
        setMode('upload');
        setAddOpen(true);
      }}
    >
      <title>My Portfolio · Card Grader</title>
      {dragging ? (
        <div className="pointer-events-none absolute inset-2 z-10 flex items-center justify-center rounded-xl border-2 border-dashed border-primary bg-primary/5 text-lg font-semibold text-primary">
          Drop photos to add cards
        </div>
      ) : null}
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid gap-1">
          <h1 className="text-3xl font-bold tracking-tight">My Portfolio</h1>
          <p className="text-muted-foreground">What your cards cost, what they are worth, and how that moved</p>
        </div>
        <div className="flex flex-wrap gap-2">
          {guest ? (
            <SignInToKeepButton />
          ) : (
            <>
              <Button variant="outline" onClick={exportCsv} disabled={cards.length === 0} aria-describedby={cards.length === 0 ? 'portfolio-export-needs' : undefined}>
                <Download aria-hidden />
                Export CSV
              </Button>
              <Button
                onClick={() => {
                  setMode((m) => m);
                  setAddOpen(true);
                }}
              >
                <Plus aria-hidden />
                Add Card(s)
              </Button>
            </>
          )}
        </div>
      </header>

      {/* A disabled button says why (it takes no hover, so no tooltip). */}
      {user && !isPending && cards.length === 0 ? (
        <p id="portfolio-export-needs" className="-mt-4 text-xs text-muted-foreground sm:text-right">
          Export CSV needs at least one card in your portfolio.
        </p>
      ) : null}
      {!userPending && !user ? (
        <GuestNotice screen="Portfolio" returnTo="/portfolio" linkText="Sign up to keep your portfolio" />
      ) : null}

      {isPending ? (
        <div className="flex items-center justify-center gap-3 py-16 text-muted-foreground" aria-busy="true">
          <Spinner className="size-6" label="Loading portfolio" />
          <p>Loading portfolio...</p>
        </div>
      ) : (
        <>
          <SummaryCards summary={summarise(cards)} />
          {history.data && history.data.length > 0 ? <ValueChart points={history.data} /> : null}
          <Toolbar search={search} onChange={change} />
          {shown.length === 0 ? (
            <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed bg-card px-6 py-16 text-center">
              <PackageOpen className="size-10 text-muted-foreground" aria-hidden />
              <h2 className="text-lg font-semibold">No cards found</h2>
              {guest ? (
                <>
                  <p className="max-w-md text-sm text-muted-foreground">A portfolio keeps what your cards cost and what they are worth. It needs an account, so it is there when you come back.</p>
                  <SignInToKeepButton />
                </>
              ) : cards.length === 0 ? (
                <Button
                  onClick={() => {
                    setMode('manual');
                    setAddOpen(true);
                  }}
                >
                  Add Your First Card
                </Button>
              ) : (
                <p className="text-sm text-muted-foreground">No cards match your search.</p>
              )}
            </div>
          ) : (
            <>
              <p className="text-sm text-muted-foreground" aria-live="polite" data-testid="portfolio-count">
                Showing {(page - 1) * PAGE_SIZE + 1}-{(page - 1) * PAGE_SIZE + pageCards.length} of {shown.length} cards
              </p>
              <PortfolioTable {...listProps} />
              <PortfolioCardList {...listProps} />
              <CollectionPagination
                page={page}
                count={pages}
                onPageChange={(next) => {
                  change({ page: next === 1 ? undefined : next });
                  window.scrollTo({ top: 0 });
                }}
              />
            </>
          )}
        </>
      )}

      {guest ? null : <AddCardsDialog open={addOpen} onOpenChange={setAddOpen} mode={mode} onModeChange={setMode} files={files} onFilesChange={setFiles} />}
      <DeleteCardDialog card={deleting} onClose={() => setDeleting(null)} />
      <ImageViewer images={viewing} onClose={() => setViewing(null)} />
    </div>
  );
}

function SignInToKeepButton() {
  return (
    <Button asChild>
      <Link to="/auth" search={{ returnTo: '/portfolio' }}>
        <LogIn aria-hidden />
        Sign in to keep a portfolio
      </Link>
    </Button>
  );
}

function Toolbar({ search, onChange }: { search: PortfolioSearch; onChange: (patch: Partial<PortfolioSearch>) => void }) {
  const onSearch = useCallback((q: string | undefined) => onChange({ q }), [onChange]);
  return (
    <div className="grid gap-3 sm:grid-cols-[1fr_auto_14rem] sm:items-center">
      <SearchInput value={search.q ?? ''} onSearch={onSearch} placeholder="Search by name, set, number or year..." />
      <div className="flex items-center gap-2">
        <Checkbox id="graded-only" checked={search.graded === true} onCheckedChange={(checked) => onChange({ graded: checked === true ? true : undefined })} />
        <Label htmlFor="graded-only">Graded only</Label>
      </div>
      <SortSelect value={search.sort} defaultValue={DEFAULT_SORT} options={sortOptions} onChange={(sort) => onChange({ sort })} />
    </div>
  );
}
