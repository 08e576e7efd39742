import {
  type AlertListQuery,
  type AlertType,
  type AlertView,
  alertStatuses,
  alertTypeLabels,
  alertTypes,
} from '@shared/operations/alertApi.ts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createColumnHelper,
  type PaginationState,
  rowPaginationFeature,
  rowSortingFeature,
  type SortingState,
  tableFeatures,
  useTable,
} from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ArrowUpDown, BellOff, Check, Loader2 } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { errorMessage } from '../../app/api.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { Badge, type BadgeVariant } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { selectClasses } from '../accounts/FieldMessage.tsx';
import { alertsApi } from './alertsApi.ts';
import { exactTime, timeAgo } from './format.ts';

const features = tableFeatures({ rowSortingFeature, rowPaginationFeature });
const PAGE_SIZE = 20;
type Status = (typeof alertStatuses)[number];
const STATUS_LABELS: Record<Status, string> = { open: 'Unresolved', resolved: 'Resolved', all: 'All' };
const SEVERITY_BADGE: Record<AlertView['severity'], BadgeVariant> = { high: 'destructive', medium: 'secondary', low: 'outline' };
/** Columns the server sorts by (alertApi's sort keys); the others are not sortable. */
const SORTABLE = new Set(['createdAt', 'severity', 'type']);

const typeLabel = (type: string) => alertTypeLabels[type as AlertType] ?? type;

const helper = createColumnHelper<typeof features, AlertView>();
const columns = helper.columns([
  helper.accessor('createdAt', {
    header: 'Raised',
    cell: ({ row }) => (
      <time dateTime={row.original.createdAt} title={exactTime(row.original.createdAt)} className="whitespace-nowrap">
        {timeAgo(row.original.createdAt)}
      </time>
    ),
  }),
  helper.accessor('severity', {
    header: 'Severity',
    cell: ({ row }) => <Badge variant={SEVERITY_BADGE[row.original.severity]}>{row.original.severity}</Badge>,
  }),
  helper.accessor('type', { header: 'Type', cell: ({ row }) => <span className="whitespace-nowrap">{typeLabel(row.original.type)}</span> }),
  helper.accessor('title', {
    header: 'Alert',
    enableSorting: false,
    cell: ({ row }) => (
      <div className="min-w-64">
        <div className="font-medium text-slate-900">{row.original.title}</div>
        {row.original.description ? <p className="mt-0.5 text-xs break-words text-slate-600">{row.original.description}</p> : null}
      </div>
    ),
  }),
  helper.display({ id: 'status', header: 'Status', cell: ({ row }) => <AlertStatus alert={row.original} /> }),
]);

/** Alerts (issue 12 §4): what needs a person, filtered, sorted and paged by the server; resolved with a note. */
export function AlertsTab() {
  const [status, setStatus] = useState<Status>('open');
  const [type, setType] = useState<AlertType | ''>('');
  const [sorting, setSorting] = useState<SortingState>([{ id: 'createdAt', desc: true }]);
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: PAGE_SIZE });
  const ids = { status: useId(), type: useId() };

  const sort = sorting[0];
  const query: AlertListQuery = {
    status,
    ...(type ? { type } : {}),
    sort: (sort && SORTABLE.has(sort.id) ? sort.id : 'createdAt') as AlertListQuery['sort'],
    order: sort && !sort.desc ? 'asc' : 'desc',
    page: pagination.pageIndex + 1,
    pageSize: pagination.pageSize,
  };
  const alerts = useQuery({ queryKey: alertsApi.listKey(query), queryFn: alertsApi.list(query), placeholderData: keepPreviousData });

  const table = useTable({
    features,
    columns,
    data: alerts.data?.rows ?? [],
    getRowId: (row) => row.id,
    manualSorting: true,
    manualPagination: true,
    rowCount: alerts.data?.total ?? 0,
    enableSortingRemoval: false,
    state: { sorting, pagination },
    onSortingChange: setSorting,
    onPaginationChange: setPagination,
  });
  const firstPage = () => setPagination((p) => ({ ...p, pageIndex: 0 }));
  const pageCount = table.getPageCount();

  return (
    <section aria-labelledby="alerts-heading" className="rounded-[var(--radius-card)] border border-border bg-white shadow-sm">
      <div className="flex flex-wrap items-end justify-between gap-3 border-b border-border px-5 py-4">
        <h2 id="alerts-heading" className="text-lg font-semibold text-slate-900">
          {STATUS_LABELS[status]} alerts{alerts.data ? ` (${alerts.data.total})` : ''}
        </h2>
        <div className="flex flex-wrap items-end gap-3">
          <div className="flex flex-col gap-1">
            <Label htmlFor={ids.status}>Status</Label>
            <select
              id={ids.status}
              className={selectClasses}
              value={status}
              onChange={(event) => {
                setStatus(event.target.value as Status);
                firstPage();
              }}
            >
              {alertStatuses.map((s) => (
                <option key={s} value={s}>
                  {STATUS_LABELS[s]}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor={ids.type}>Type</Label>
            <select
              id={ids.type}
              className={selectClasses}
              value={type}
              onChange={(event) => {
                setType(event.target.value as AlertType | '');
                firstPage();
              }}
            >
              <option value="">All types</option>
              {alertTypes.map((t) => (
                <option key={t} value={t}>
                  {alertTypeLabels[t]}
                </option>
              ))}
            </select>
          </div>
          {alerts.isFetching && !alerts.isPending ? (
            <Loader2 className="mb-2 size-4 animate-spin text-slate-400" aria-label="Refreshing" />
          ) : null}
        </div>
      </div>

      {alerts.isPending ? (
        <div className="space-y-3 p-5" role="status" aria-busy="true" aria-label="Loading alerts">
          {SKELETON_ROWS.map((key) => (
            <div key={key} className="h-12 animate-pulse rounded-md bg-slate-100" />
          ))}
        </div>
      ) : alerts.isError ? (
        <div className="p-5">
          <LoadError
            title="The alerts could not be loaded"
            message={errorMessage(alerts.error, 'The server did not answer as expected.')}
            onRetry={() => void alerts.refetch()}
            retrying={alerts.isFetching}
          />
        </div>
      ) : alerts.data.total === 0 ? (
        <div className="flex flex-col items-center px-6 py-12 text-center">
          <BellOff className="size-9 text-slate-400" aria-hidden="true" />
          <p className="mt-3 font-medium text-slate-900">{status === 'open' ? 'No unresolved alerts' : 'No alerts match these filters'}</p>
          <p className="mt-1 text-sm text-slate-600">
            Failed payments, lost calendar access and stopped background work appear here when they happen.
          </p>
        </div>
      ) : (
        <>
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
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
                        {SORTABLE.has(header.column.id) ? (
                          <SortButton
                            sorted={header.column.getIsSorted()}
                            onSort={(desc) => {
                              setSorting([{ id: header.column.id, desc }]);
                              firstPage();
                            }}
                            defaultDesc={header.column.id !== 'type'}
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
                  <tr key={row.id} data-testid="alert-row" className="align-top">
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
          {pageCount > 1 ? (
            <nav aria-label="Alerts pages" className="flex items-center justify-between gap-3 border-t border-border px-5 py-3 text-sm">
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
      )}
    </section>
  );
}

const SKELETON_ROWS = ['a', 'b', 'c', 'd'];

const ariaSort = (sorted: false | 'asc' | 'desc') => (sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined);

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

function AlertStatus({ alert }: { alert: AlertView }) {
  if (!alert.isResolved) return <ResolveAlertButton alert={alert} />;
  return (
    <div className="min-w-40 text-xs text-slate-600">
      <Badge variant="success">
        <Check className="size-3" aria-hidden="true" /> Resolved
      </Badge>
      {alert.resolvedAt ? (
        <div className="mt-1">
          <time dateTime={alert.resolvedAt} title={exactTime(alert.resolvedAt)}>
            {timeAgo(alert.resolvedAt)}
          </time>
          {alert.resolvedBy === 'system' ? ' by the system' : null}
        </div>
      ) : null}
      {alert.resolutionNote ? <p className="mt-1 break-words">{alert.resolutionNote}</p> : null}
    </div>
  );
}

function ResolveAlertButton({ alert }: { alert: AlertView }) {
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const noteId = useId();
  const queryClient = useQueryClient();
  const resolve = useMutation({
    mutationFn: () => alertsApi.resolve(alert.id, note),
    onSuccess: async () => {
      setOpen(false);
      setNote('');
      toast({ title: 'Alert resolved', description: alert.title, variant: 'success' });
      await queryClient.invalidateQueries({ queryKey: alertsApi.allKey });
    },
    onError: (e) => {
      const message = errorMessage(e, 'Failed to resolve alert');
      toast({ title: 'Error', description: message, variant: 'destructive' });
      // Someone else resolved it meanwhile: show the table as it is now.
      void queryClient.invalidateQueries({ queryKey: alertsApi.allKey });
    },
  });
  const submit = () => {
    if (!note.trim()) {
      setError('Please say what was done to resolve this alert');
      return;
    }
    setError(null);
    resolve.mutate();
  };
  return (
    <>
      <Button size="sm" variant="outline" onClick={() => setOpen(true)}>
        Resolve
      </Button>
      <Dialog open={open} onOpenChange={(next) => !resolve.isPending && setOpen(next)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Resolve alert</DialogTitle>
            <DialogDescription>{alert.title}</DialogDescription>
          </DialogHeader>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              submit();
            }}
            className="space-y-2"
          >
            <Label htmlFor={noteId}>What was done</Label>
            <Textarea
              id={noteId}
              value={note}
              maxLength={2000}
              rows={4}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${noteId}-error` : undefined}
              onChange={(event) => setNote(event.target.value)}
              placeholder="For example: refunded the customer by hand, tutor re-authorised Google"
            />
            {error ? (
              <p id={`${noteId}-error`} className="text-sm text-destructive">
                {error}
              </p>
            ) : null}
            <DialogFooter>
              <Button type="button" variant="outline" disabled={resolve.isPending} onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={resolve.isPending}>
                {resolve.isPending ? 'Resolving...' : 'Resolve alert'}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
