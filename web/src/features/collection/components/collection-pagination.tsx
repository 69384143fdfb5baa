import { ChevronsLeft, ChevronsRight } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { pageItems } from '../collection-view';

/** Up to five page buttons, first and last shortcuts, ellipses where pages are skipped (SPEC.md §2, §9). */
export function CollectionPagination({ page, count, onPageChange }: { page: number; count: number; onPageChange: (page: number) => void }) {
  if (count <= 1) return null;
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center justify-center gap-1">
      <Button variant="outline" size="icon" className="size-9" disabled={page === 1} onClick={() => onPageChange(1)} aria-label="First page">
        <ChevronsLeft aria-hidden />
      </Button>
      {pageItems(page, count).map((item) =>
        item.kind === 'ellipsis' ? (
          <span key={item.key} className="px-2 text-muted-foreground" aria-hidden>
            …
          </span>
        ) : (
          <Button
            key={item.page}
            variant={item.page === page ? 'default' : 'outline'}
            size="icon"
            className="size-9"
            aria-label={`Page ${item.page}`}
            aria-current={item.page === page ? 'page' : undefined}
            onClick={() => onPageChange(item.page)}
          >
            {item.page}
          </Button>
        ),
      )}
      <Button variant="outline" size="icon" className="size-9" disabled={page === count} onClick={() => onPageChange(count)} aria-label="Last page">
        <ChevronsRight aria-hidden />
      </Button>
    </nav>
  );
}
