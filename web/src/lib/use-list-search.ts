import { useCallback } from 'react';

/**
 * A list screen's search params changed by patches: a change of any of `listKeys` (search, filters, sort) goes back
 * to page 1 (SPEC.md §4, §9); other changes keep the page unless they set it.
 */
export function useListSearch<S extends { page?: number | undefined }>(search: S, onSearchChange: (next: S) => void, listKeys: readonly (keyof S)[]) {
  return useCallback(
    (patch: Partial<S>) => {
      const backToFirstPage = listKeys.some((key) => key in patch);
      onSearchChange({ ...search, ...patch, page: backToFirstPage ? undefined : 'page' in patch ? patch.page : search.page });
    },
    [search, onSearchChange, listKeys],
  );
}
