import { Download, LayoutGrid, List, LoaderCircle, RefreshCw } from 'lucide-react';
import { useCallback } from 'react';
import { Button } from '@/components/ui/button';
import { SearchInput } from '@/components/ui/search-input';
import { SortSelect } from '@/components/ui/sort-select';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { type Band, type CollectionSearch, DEFAULT_SORT, gradeBands, priceBands, sortOptions } from '../collection-view';

const ALL = 'all';

/** Search box, sort, price and grade menus, Export, Sync and the grid/list switch (SPEC.md §2). */
export function CollectionToolbar({
  search,
  onChange,
  onExport,
  exportDisabled,
  exportDisabledReason,
  onSync,
  syncDisabled,
  syncDisabledReason,
  syncing,
}: {
  search: CollectionSearch;
  onChange: (patch: Partial<CollectionSearch>) => void;
  onExport: () => void;
  exportDisabled: boolean;
  /** Said under the buttons while Export is disabled: a disabled control says why. */
  exportDisabledReason?: string | undefined;
  onSync: () => void;
  syncDisabled: boolean;
  syncDisabledReason?: string | undefined;
  syncing: boolean;
}) {
  const onSearch = useCallback((q: string | undefined) => onChange({ q }), [onChange]);

  return (
    <div className="grid gap-3">
      <div className="flex gap-2">
        <SearchInput className="relative flex-1" value={search.q ?? ''} onSearch={onSearch} placeholder="Search by name or set..." />
        <ToggleGroup
          type="single"
          value={search.view ?? 'grid'}
          onValueChange={(view) => view && onChange({ view: view === 'grid' ? undefined : 'list' })}
          aria-label="View"
        >
          <ToggleGroupItem value="grid" aria-label="Grid view">
            <LayoutGrid aria-hidden />
          </ToggleGroupItem>
          <ToggleGroupItem value="list" aria-label="List view">
            <List aria-hidden />
          </ToggleGroupItem>
        </ToggleGroup>
      </div>

      <div className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-[repeat(3,minmax(0,1fr))_auto]">
        <SortSelect value={search.sort} defaultValue={DEFAULT_SORT} options={sortOptions} onChange={(sort) => onChange({ sort })} className="col-span-2 sm:col-span-1" />
        <Select
          value={search.price ?? ALL}
          // One band filter at a time (SPEC.md §4): a price band replaces a grade band.
          onValueChange={(price) => onChange({ price: price === ALL ? undefined : (price as Band), grade: undefined })}
        >
          <SelectTrigger aria-label="Price filter">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>All prices</SelectItem>
            {Object.entries(priceBands).map(([band, { label }]) => (
              <SelectItem key={band} value={band}>
                {label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Select value={search.grade ?? ALL} onValueChange={(grade) => onChange({ grade: grade === ALL ? undefined : (grade as Band), price: undefined })}>
          <SelectTrigger aria-label="Grade filter">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>All grades</SelectItem>
            {Object.entries(gradeBands).map(([band, { label }]) => (
              <SelectItem key={band} value={band}>
                Grade {label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <div className="col-span-2 grid grid-cols-2 gap-2 sm:col-span-3 lg:col-span-1">
          <Button variant="outline" onClick={onExport} disabled={exportDisabled} aria-describedby={exportDisabled && exportDisabledReason ? 'export-disabled-reason' : undefined}>
            <Download aria-hidden />
            Export
          </Button>
          <Button variant="outline" onClick={onSync} disabled={syncDisabled} aria-describedby={syncDisabled && syncDisabledReason ? 'sync-disabled-reason' : undefined}>
            {syncing ? <LoaderCircle className="animate-spin" aria-hidden /> : <RefreshCw aria-hidden />}
            Sync
          </Button>
        </div>
      </div>
      {/* A disabled button shows no tooltip (it takes no pointer events), so why it is disabled is written under it. */}
      {(exportDisabled && exportDisabledReason) || (syncDisabled && syncDisabledReason) ? (
        <div className="grid gap-0.5 text-xs text-muted-foreground lg:justify-items-end" data-testid="disabled-reasons">
          {exportDisabled && exportDisabledReason ? <p id="export-disabled-reason">{exportDisabledReason}</p> : null}
          {syncDisabled && syncDisabledReason ? <p id="sync-disabled-reason">{syncDisabledReason}</p> : null}
        </div>
      ) : null}
    </div>
  );
}
