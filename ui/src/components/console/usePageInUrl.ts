import { useNavigate, useSearch } from '@tanstack/react-router';
import type { PaginationState } from '@tanstack/react-table';
import { type SetStateAction, useCallback, useRef } from 'react';

/**
 * A console table's paging kept in `?page=` (1-based, absent on the first page) next to `?tab=`:
 * a reload, the back button or a shared link lands on the same page. Changing tabs drops it.
 * The setter is stable (it reads the latest URL through a ref), as a state setter is: tables whose
 * memoised columns call it (Sessions) do not remount their cells on every page change.
 */
export function usePageInUrl(pageSize: number): [PaginationState, (next: SetStateAction<PaginationState>) => void] {
  const navigate = useNavigate();
  const { tab, history, page } = useSearch({ from: '/admin' });
  const pagination: PaginationState = { pageIndex: (page ?? 1) - 1, pageSize };
  const latest = useRef({ tab, history, pagination });
  latest.current = { tab, history, pagination };
  const setPagination = useCallback(
    (next: SetStateAction<PaginationState>) => {
      const current = latest.current;
      const value = typeof next === 'function' ? next(current.pagination) : next;
      if (value.pageIndex === current.pagination.pageIndex) return;
      void navigate({
        to: '/admin',
        search: {
          ...(current.tab ? { tab: current.tab } : {}),
          ...(current.history ? { history: current.history } : {}),
          ...(value.pageIndex > 0 ? { page: value.pageIndex + 1 } : {}),
        },
      });
    },
    [navigate],
  );
  return [pagination, setPagination];
}
