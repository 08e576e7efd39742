import { useNavigate, useSearch } from '@tanstack/react-router';
import type { PaginationState } from '@tanstack/react-table';
import type { SetStateAction } from 'react';

/**
 * A console table's paging kept in `?page=` (1-based, absent on the first page) next to `?tab=`:
 * a reload, the back button or a shared link lands on the same page. Changing tabs drops it.
 */
export function usePageInUrl(pageSize: number): [PaginationState, (next: SetStateAction<PaginationState>) => void] {
  const navigate = useNavigate();
  const { tab, history, page } = useSearch({ from: '/admin' });
  const pagination: PaginationState = { pageIndex: (page ?? 1) - 1, pageSize };
  const setPagination = (next: SetStateAction<PaginationState>) => {
    const value = typeof next === 'function' ? next(pagination) : next;
    if (value.pageIndex === pagination.pageIndex) return;
    void navigate({
      to: '/admin',
      search: { ...(tab ? { tab } : {}), ...(history ? { history } : {}), ...(value.pageIndex > 0 ? { page: value.pageIndex + 1 } : {}) },
    });
  };
  return [pagination, setPagination];
}
