import type { UseQueryResult } from '@tanstack/react-query';
import {
  type ColumnDef,
  createColumnHelper,
  type PaginationState,
  type RowData,
  rowPaginationFeature,
  rowSortingFeature,
  type SortingState,
  tableFeatures,
  useTable,
} from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ArrowUpDown, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { errorMessage } from '../../app/api.ts';
import { LoadError } from '../LoadError.tsx';
import { Button } from '../ui/button.tsx';

/**
 * The console's one table (issue 12): lists are paged, sorted and filtered by the server, so the
 * table only renders the page it is given and reports the sort and page the user asks for. A short
 * fixed list (queues, projections) passes neither and renders as a static table.
 */
export const consoleFeatures = tableFeatures({ rowSortingFeature, rowPaginationFeature });
export type ConsoleColumn<TRow extends RowData> = ColumnDef<typeof consoleFeatures, TRow>;
export const consoleColumnHelper = <TRow extends RowData>() => createColumnHelper<typeof consoleFeatures, TRow>();

export interface ConsolePage<TRow> {
  rows: TRow[];
  total: number;
}

interface ConsoleTableBase<TRow extends RowData> {
  /** Names the table for assistive technology and the pages nav ("Alerts" → "Alerts pages"). */
  label: string;
  query: UseQueryResult<ConsolePage<TRow>>;
  columns: ConsoleColumn<TRow>[];
  getRowId: (row: TRow) => string;
  rowTestId?: string;
  /** Opens the row's entity history (a click on the row, or Enter on it). */
  onOpenRow?: (row: TRow) => void;
  /** What one row is ("session", "alert"), for the open-history label. */
  rowNoun?: string;
  empty: { icon: LucideIcon; title: string; description: string };
  loadErrorTitle: string;
}

/** A list the server sorts: which columns, the current sort and who hears of a new one. */
interface ServerSorting {
  /** Column ids the server sorts by; the others show no sort control. */
  sortable: ReadonlySet<string>;
  /** Columns whose first click sorts ascending (names, types); the rest start newest/largest first. */
  ascendingFirst?: ReadonlySet<string>;
  sorting: SortingState;
  onSortingChange: (sorting: SortingState) => void;
}

/** A list the server pages: the current page and who hears of a new one. */
interface ServerPaging {
  pagination: PaginationState;
  onPaginationChange: (pagination: PaginationState) => void;
}

/** Leaves out a whole group: a table is sorted (or paged) with all of its props or none. */
type Without<TGroup> = { [K in keyof TGroup]?: never };

export type ConsoleTableProps<TRow extends RowData> = ConsoleTableBase<TRow> &
  (ServerSorting | Without<ServerSorting>) &
  (ServerPaging | Without<ServerPaging>);

const UNSORTED: SortingState = [];
const NOT_SORTABLE: ReadonlySet<string> = new Set();
/** An unpaged table is one page holding every row the server sent. */
const ONE_PAGE: PaginationState = { pageIndex: 0, pageSize: Number.MAX_SAFE_INTEGER };

const SKELETON_ROWS = ['a', 'b', 'c', 'd'];

const ariaSort = (sorted: false | 'asc' | 'desc') => (sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined);

export function ConsoleTable<TRow extends RowData>(props: ConsoleTableProps<TRow>) {
  const { query, onPaginationChange, onSortingChange } = props;
  const sorting = props.sorting ?? UNSORTED;
  const sortable = props.sortable ?? NOT_SORTABLE;
  const pagination = props.pagination ?? ONE_PAGE;
  const table = useTable({
    features: consoleFeatures,
    columns: props.columns,
    data: query.data?.rows ?? [],
    getRowId: props.getRowId,
    manualSorting: true,
    manualPagination: true,
    rowCount: query.data?.total ?? 0,
    enableSortingRemoval: false,
    state: { sorting, pagination },
    onSortingChange: (updater) => onSortingChange?.(typeof updater === 'function' ? updater(sorting) : updater),
    onPaginationChange: (updater) => onPaginationChange?.(typeof updater === 'function' ? updater(pagination) : updater),
  });

  if (query.isPending) {
    return (
      <div className="space-y-3 p-5" role="status" aria-busy="true" aria-label={`Loading ${props.label.toLowerCase()}`}>
        {SKELETON_ROWS.map((key) => (
          <div key={key} className="h-12 animate-pulse rounded-md bg-slate-100" />
        ))}
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="p-5">
        <LoadError
          title={props.loadErrorTitle}
          message={errorMessage(query.error, 'The server did not answer as expected.')}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      </div>
    );
  }
  if (query.data.total === 0) {
    const Icon = props.empty.icon;
    return (
      <div className="flex flex-col items-center px-6 py-12 text-center">
        <Icon className="size-9 text-slate-400" aria-hidden="true" />
        <p className="mt-3 font-medium text-slate-900">{props.empty.title}</p>
        <p className="mt-1 text-sm text-slate-600">{props.empty.description}</p>
      </div>
    );
  }

  const pageCount = table.getPageCount();
  const openRow = props.onOpenRow;
  return (
    <>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" aria-label={props.label}>
          <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <th
                    key={header.id}
                    scope="col"
                    className="px-3 py-3 whitespace-nowrap first:pl-5 last:pr-5"
                    aria-sort={ariaSort(header.column.getIsSorted())}
                  >
                    {onSortingChange && sortable.has(header.column.id) ? (
                      <SortButton
                        sorted={header.column.getIsSorted()}
                        onSort={(desc) => {
                          onSortingChange([{ id: header.column.id, desc }]);
                          onPaginationChange?.({ ...pagination, pageIndex: 0 });
                        }}
                        defaultDesc={!props.ascendingFirst?.has(header.column.id)}
                      >
                        <table.FlexRender header={header} />
                      </SortButton>
                    ) : (
                      <table.FlexRender header={header} />
                    )}
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody className="divide-y divide-border">
            {table.getRowModel().rows.map((row) => (
              <tr
                key={row.id}
                data-testid={props.rowTestId}
                className={openRow ? 'cursor-pointer align-top hover:bg-slate-50' : 'align-top'}
                tabIndex={openRow ? 0 : undefined}
                aria-label={openRow ? `Open the history of this ${props.rowNoun ?? 'row'}` : undefined}
                onClick={
                  openRow
                    ? (event) => {
                        // Buttons and links inside the row do their own thing.
                        if ((event.target as HTMLElement).closest('button, a, input, select, textarea')) return;
                        openRow(row.original);
                      }
                    : undefined
                }
                onKeyDown={
                  openRow
                    ? (event) => {
                        if (event.key === 'Enter' && event.target === event.currentTarget) openRow(row.original);
                      }
                    : undefined
                }
              >
                {row.getAllCells().map((cell) => (
                  <td key={cell.id} className="px-3 py-3 text-slate-700 first:pl-5 last:pr-5">
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {onPaginationChange && pageCount > 1 ? (
        <nav
          aria-label={`${props.label} pages`}
          className="flex items-center justify-between gap-3 border-t border-border px-5 py-3 text-sm"
        >
          <span className="text-slate-600">
            Page {pagination.pageIndex + 1} of {pageCount}
          </span>
          <div className="flex gap-2">
            <Button size="sm" variant="outline" disabled={!table.getCanPreviousPage()} onClick={() => table.previousPage()}>
              Previous
            </Button>
            <Button size="sm" variant="outline" disabled={!table.getCanNextPage()} onClick={() => table.nextPage()}>
              Next
            </Button>
          </div>
        </nav>
      ) : null}
    </>
  );
}

/** A sortable column's header: a click flips the order, or starts with the column's natural one. */
function SortButton({
  sorted,
  onSort,
  defaultDesc,
  children,
}: {
  sorted: false | 'asc' | 'desc';
  onSort: (desc: boolean) => void;
  defaultDesc: boolean;
  children: ReactNode;
}) {
  const Icon = sorted === 'asc' ? ArrowUp : sorted === 'desc' ? ArrowDown : ArrowUpDown;
  return (
    <button
      type="button"
      onClick={() => onSort(sorted ? sorted === 'asc' : defaultDesc)}
      className="inline-flex items-center gap-1 rounded uppercase hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
    >
      {children}
      <Icon className={sorted ? 'size-3.5' : 'size-3.5 text-slate-400'} aria-hidden="true" />
    </button>
  );
}
