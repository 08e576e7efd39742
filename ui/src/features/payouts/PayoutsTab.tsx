import type { PayoutLineView, PayoutPeriodView } from '@shared/payouts/payoutApi.ts';
import type { PayoutMethod } from '@shared/payouts/payoutPeriod.ts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PaginationState, SortingState } from '@tanstack/react-table';
import { ChevronLeft, ChevronRight, Download, Loader2, Wallet } from 'lucide-react';
import { useId, useState } from 'react';
import { errorMessage } from '../../app/api.ts';
import { useCurrentUser } from '../../app/auth/useCurrentUser.ts';
import { ConsoleTable, consoleColumnHelper } from '../../components/console/ConsoleTable.tsx';
import { selectClasses } from '../../components/FieldMessage.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '../../components/ui/alert-dialog.tsx';
import { Badge, type BadgeVariant } from '../../components/ui/badge.tsx';
import { Button, buttonVariants } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { useOpenEntityHistory } from '../operations/entityHistoryLink.ts';
import { formatDay, formatMoney, PAYOUT_METHOD_LABELS, payoutMethods, payoutsApi } from './api.ts';
import { PayoutSessionsButton } from './PayoutSessionsDialog.tsx';

const PAGE_SIZE = 25;
const STATUS_BADGE: Record<PayoutPeriodView['status'], { variant: BadgeVariant; label: string }> = {
  open: { variant: 'secondary', label: 'Open' },
  approved: { variant: 'outline', label: 'Approved' },
  paid: { variant: 'success', label: 'Paid' },
};
/** Every column sorts: the lines of one period are few, so the browser sorts and pages what the server sent. */
const SORTABLE = new Set(['tutorName', 'kind', 'sessions', 'rate', 'amount']);
const ASCENDING_FIRST = new Set(['tutorName', 'kind']);

type Row = PayoutLineView & { id: string };

function sortRows(rows: Row[], sorting: SortingState): Row[] {
  const sort = sorting[0];
  if (!sort) return rows;
  const key = sort.id as keyof Row;
  const sign = sort.desc ? -1 : 1;
  return [...rows].sort((a, b) => {
    const x = a[key];
    const y = b[key];
    if (typeof x === 'number' && typeof y === 'number') return sign * (x - y);
    return sign * String(x ?? '').localeCompare(String(y ?? ''));
  });
}

const helper = consoleColumnHelper<Row>();

function columnsFor(canChangeRate: boolean, view: PayoutPeriodView | undefined) {
  const period = view?.period;
  // Session lines per tutor: two when the rate changed mid-period.
  const linesOf = new Map<string, number>();
  for (const l of view?.lines ?? []) if (l.kind === 'sessions') linesOf.set(l.tutorId, (linesOf.get(l.tutorId) ?? 0) + 1);
  return helper.columns([
    helper.accessor('tutorName', {
      header: 'Tutor',
      cell: ({ row }) => <span className="font-medium text-slate-900">{row.original.tutorName}</span>,
    }),
    helper.accessor('kind', {
      header: 'Line',
      cell: ({ row }) =>
        row.original.kind === 'adjustment' ? (
          <div className="min-w-40">
            <Badge variant="secondary">Adjustment</Badge>
            {row.original.adjusts ? (
              <p className="mt-1 text-xs text-slate-600">Adjustment to the approved period starting {formatDay(row.original.adjusts)}</p>
            ) : row.original.note ? (
              <p className="mt-1 text-xs text-slate-600">{row.original.note}</p>
            ) : null}
          </div>
        ) : (
          <div className="min-w-28">
            <span>Sessions</span>
            {row.original.note ? <p className="mt-1 text-xs text-amber-700">{row.original.note}</p> : null}
          </div>
        ),
    }),
    helper.accessor('sessions', {
      header: 'Sessions',
      // A sessions line opens the sessions behind it; an adjustment's count is a difference, not sessions to list.
      cell: ({ row }) =>
        row.original.kind === 'sessions' && period ? (
          <PayoutSessionsButton line={row.original} period={period} oneOfSeveral={(linesOf.get(row.original.tutorId) ?? 0) > 1} />
        ) : (
          row.original.sessions
        ),
    }),
    helper.accessor('hours', { header: 'Hours', enableSorting: false, cell: ({ row }) => row.original.hours }),
    helper.accessor('rate', {
      header: 'Rate',
      cell: ({ row }) => (row.original.rate === null ? '—' : `${formatMoney(row.original.rate)}/h`),
    }),
    helper.accessor('amount', {
      header: 'Amount',
      cell: ({ row }) => <span className="font-medium whitespace-nowrap text-slate-900">{formatMoney(row.original.amount)}</span>,
    }),
    ...(canChangeRate
      ? [
          helper.display({
            id: 'actions',
            header: () => <span className="sr-only">Actions</span>,
            cell: ({ row }) =>
              row.original.kind === 'sessions' ? (
                <ChangeRateButton tutorId={row.original.tutorId} tutorName={row.original.tutorName} />
              ) : null,
          }),
        ]
      : []),
  ]);
}

/** Payouts (issue 12 §3): a billing period's lines per tutor, approved once, then marked paid; CSV for the bank. */
export function PayoutsTab() {
  const [period, setPeriod] = useState<string | null>(null);
  const [sorting, setSorting] = useState<SortingState>([{ id: 'tutorName', desc: false }]);
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: PAGE_SIZE });
  const user = useCurrentUser();
  const openHistory = useOpenEntityHistory();
  const canChangeRate = user.data?.role === 'admin';
  const jumpId = useId();

  const options = { queryKey: payoutsApi.periodKey(period), queryFn: payoutsApi.period(period), placeholderData: keepPreviousData };
  const view = useQuery(options);
  const page = useQuery({
    ...options,
    select: (data: PayoutPeriodView) => {
      const rows = sortRows(
        data.lines.map((l, i) => ({ ...l, id: `${l.kind}-${l.tutorId}-${l.rate ?? l.adjusts ?? i}-${i}` })),
        sorting,
      );
      const start = pagination.pageIndex * pagination.pageSize;
      return { rows: rows.slice(start, start + pagination.pageSize), total: rows.length };
    },
  });

  const goTo = (day: string) => {
    setPeriod(day);
    setPagination((p) => ({ ...p, pageIndex: 0 }));
  };
  const data = view.data;

  return (
    <section aria-labelledby="payouts-heading" className="rounded-[var(--radius-card)] border border-border bg-white shadow-sm">
      <div className="flex flex-wrap items-end justify-between gap-3 border-b border-border px-5 py-4">
        <div className="min-w-0">
          <h2 id="payouts-heading" className="text-lg font-semibold text-slate-900">
            Payouts
          </h2>
          {data ? (
            <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-600" data-testid="payout-period">
              <span>
                {formatDay(data.period.start)} – {formatDay(data.period.end)}
              </span>
              <Badge variant={STATUS_BADGE[data.status].variant} data-testid="payout-status">
                {STATUS_BADGE[data.status].label}
              </Badge>
              {view.isFetching && !view.isPending ? (
                <Loader2 className="size-4 animate-spin text-slate-400" aria-label="Refreshing" />
              ) : null}
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <Button
            size="sm"
            variant="outline"
            disabled={!data}
            onClick={() => data && goTo(data.previousPeriodStart)}
            aria-label="Previous period"
          >
            <ChevronLeft className="size-4" aria-hidden="true" /> Previous
          </Button>
          <Button size="sm" variant="outline" disabled={!data} onClick={() => data && goTo(data.nextPeriodStart)} aria-label="Next period">
            Next <ChevronRight className="size-4" aria-hidden="true" />
          </Button>
          <div className="flex flex-col gap-1">
            <Label htmlFor={jumpId}>Any day in the period</Label>
            <Input
              id={jumpId}
              type="date"
              className="h-9 w-40"
              value={data?.period.start ?? ''}
              onChange={(event) => event.target.value && goTo(event.target.value)}
            />
          </div>
        </div>
      </div>

      {view.isError && !data ? (
        <div className="p-5">
          <LoadError
            title="The payouts could not be loaded"
            message={errorMessage(view.error, 'The server did not answer as expected.')}
            onRetry={() => void view.refetch()}
            retrying={view.isFetching}
          />
        </div>
      ) : (
        <ConsoleTable
          label="Payout lines"
          query={page}
          // A paid period is history: its lines offer no rate change (the rate is changed from an open or approved one).
          columns={columnsFor(canChangeRate && data?.status !== 'paid', data)}
          getRowId={(row) => row.id}
          sortable={SORTABLE}
          ascendingFirst={ASCENDING_FIRST}
          sorting={sorting}
          onSortingChange={setSorting}
          pagination={pagination}
          onPaginationChange={setPagination}
          rowTestId="payout-line"
          rowNoun="tutor"
          onOpenRow={(row) => openHistory('tutor', row.tutorId)}
          empty={{
            icon: Wallet,
            title: 'Nothing to pay for this period',
            description: 'Completed sessions and late cancellations of the period appear here, at the rate in force at their start.',
          }}
          loadErrorTitle="The payouts could not be loaded"
        />
      )}

      {data ? <PeriodFooter view={data} /> : null}
    </section>
  );
}

function PeriodFooter({ view }: { view: PayoutPeriodView }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 border-t border-border px-5 py-4">
      <div>
        <p className="text-sm text-slate-600">Total</p>
        <p className="text-xl font-semibold text-slate-900" data-testid="payout-total">
          {formatMoney(view.total)}
        </p>
        {view.status === 'paid' && view.method ? (
          <p className="mt-1 text-xs break-all text-slate-600">
            Paid by {PAYOUT_METHOD_LABELS[view.method]}, reference {view.reference}
          </p>
        ) : null}
        {view.status === 'open' && !view.ended ? (
          <p className="mt-1 text-xs text-slate-600">This period is still running: it can be approved once it ends.</p>
        ) : null}
        {view.status === 'open' && view.ended && view.lines.length === 0 ? (
          <p className="mt-1 text-xs text-slate-600" data-testid="payout-nothing">
            No sessions or adjustments in this period: there is nothing to approve.
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap gap-2">
        <a
          className={buttonVariants({ variant: 'outline', size: 'sm' })}
          href={payoutsApi.csvUrl(view.period.start)}
          download
          data-testid="payout-csv"
        >
          <Download className="size-4" aria-hidden="true" /> Download CSV
        </a>
        {view.status === 'open' && view.lines.length > 0 ? <ApproveButton view={view} /> : null}
        {view.status === 'approved' ? <MarkPaidButton view={view} /> : null}
      </div>
    </div>
  );
}

function useRefreshPayouts() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: payoutsApi.allKey });
}

function ApproveButton({ view }: { view: PayoutPeriodView }) {
  const [open, setOpen] = useState(false);
  const refresh = useRefreshPayouts();
  const approve = useMutation({
    mutationFn: () => payoutsApi.approve(view.period.start),
    onSuccess: async (approved) => {
      setOpen(false);
      toast({ title: 'Period approved', description: `${formatMoney(approved.total)} frozen for payment`, variant: 'success' });
      await refresh();
    },
    onError: (e) => {
      setOpen(false);
      toast({ title: 'Error', description: errorMessage(e, 'Failed to approve the period'), variant: 'destructive' });
      void refresh();
    },
  });
  return (
    <AlertDialog open={open} onOpenChange={(next) => !approve.isPending && setOpen(next)}>
      <Button size="sm" disabled={!view.ended} onClick={() => setOpen(true)}>
        Approve
      </Button>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Approve this payout?</AlertDialogTitle>
          <AlertDialogDescription>
            {formatDay(view.period.start)} – {formatDay(view.period.end)}: {view.lines.length} line(s), {formatMoney(view.total)}. The
            figures are frozen; later changes appear as adjustments in the next open period.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={approve.isPending}>Cancel</AlertDialogCancel>
          <AlertDialogAction
            disabled={approve.isPending}
            onClick={(event) => {
              event.preventDefault();
              approve.mutate();
            }}
          >
            {approve.isPending ? 'Approving...' : 'Approve payout'}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

function MarkPaidButton({ view }: { view: PayoutPeriodView }) {
  const [open, setOpen] = useState(false);
  const [method, setMethod] = useState<PayoutMethod>('direct_deposit');
  const [reference, setReference] = useState('');
  const [error, setError] = useState<string | null>(null);
  const ids = { method: useId(), reference: useId() };
  const refresh = useRefreshPayouts();
  const markPaid = useMutation({
    mutationFn: () => payoutsApi.markPaid(view.period.start, { method, reference }),
    onSuccess: async () => {
      setOpen(false);
      setReference('');
      toast({
        title: 'Period marked paid',
        description: `${PAYOUT_METHOD_LABELS[method]}, reference ${reference.trim()}`,
        variant: 'success',
      });
      await refresh();
    },
    onError: (e) => {
      toast({ title: 'Error', description: errorMessage(e, 'Failed to mark the period paid'), variant: 'destructive' });
      void refresh();
    },
  });
  return (
    <>
      <Button size="sm" onClick={() => setOpen(true)}>
        Mark paid
      </Button>
      <Dialog open={open} onOpenChange={(next) => !markPaid.isPending && setOpen(next)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Mark paid</DialogTitle>
            <DialogDescription>
              {formatDay(view.period.start)} – {formatDay(view.period.end)}, {formatMoney(view.total)}
            </DialogDescription>
          </DialogHeader>
          <form
            className="space-y-3"
            onSubmit={(event) => {
              event.preventDefault();
              if (!reference.trim()) {
                setError('Please enter the payment reference');
                return;
              }
              setError(null);
              markPaid.mutate();
            }}
          >
            <div className="flex flex-col gap-1">
              <Label htmlFor={ids.method}>Method</Label>
              <select
                id={ids.method}
                className={selectClasses}
                value={method}
                onChange={(event) => setMethod(event.target.value as PayoutMethod)}
              >
                {payoutMethods.map((m) => (
                  <option key={m} value={m}>
                    {PAYOUT_METHOD_LABELS[m]}
                  </option>
                ))}
              </select>
            </div>
            <div className="flex flex-col gap-1">
              <Label htmlFor={ids.reference}>Reference</Label>
              <Input
                id={ids.reference}
                value={reference}
                maxLength={200}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${ids.reference}-error` : undefined}
                onChange={(event) => setReference(event.target.value)}
                placeholder="Bank batch or transfer number"
              />
              {error ? (
                <p id={`${ids.reference}-error`} className="text-sm text-destructive">
                  {error}
                </p>
              ) : null}
            </div>
            <DialogFooter>
              <Button type="button" variant="outline" disabled={markPaid.isPending} onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={markPaid.isPending}>
                {markPaid.isPending ? 'Saving...' : 'Mark paid'}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}

/** Admins only (the server refuses finance too): a new rate from now or a given time, with a reason. */
function ChangeRateButton({ tutorId, tutorName }: { tutorId: string; tutorName: string }) {
  const [open, setOpen] = useState(false);
  const [rate, setRate] = useState('');
  const [from, setFrom] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const ids = { rate: useId(), from: useId(), reason: useId() };
  const refresh = useRefreshPayouts();
  const change = useMutation({
    mutationFn: () =>
      payoutsApi.changeRate(tutorId, {
        hourlyRate: Number(rate),
        reason,
        ...(from ? { effectiveFrom: new Date(from).toISOString() } : {}),
      }),
    onSuccess: async (saved) => {
      setOpen(false);
      setReason('');
      toast({ title: 'Rate changed', description: `${tutorName}: ${formatMoney(saved.hourlyRate)}/h`, variant: 'success' });
      await refresh();
    },
    onError: (e) => setError(errorMessage(e, 'Failed to change the rate')),
  });
  return (
    <>
      <Button size="sm" variant="ghost" onClick={() => setOpen(true)} aria-label={`Change ${tutorName}'s rate`}>
        Change rate
      </Button>
      <Dialog open={open} onOpenChange={(next) => !change.isPending && setOpen(next)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Change hourly rate</DialogTitle>
            <DialogDescription>
              {tutorName}. Sessions are paid at the rate in force at their start; a past date adjusts approved periods in the next open one.
            </DialogDescription>
          </DialogHeader>
          <form
            className="space-y-3"
            onSubmit={(event) => {
              event.preventDefault();
              if (!/^\d{1,4}(\.\d{1,2})?$/.test(rate) || Number(rate) <= 0) {
                setError('Enter a rate in dollars, for example 45 or 45.50');
                return;
              }
              if (!reason.trim()) {
                setError('A reason is required');
                return;
              }
              setError(null);
              change.mutate();
            }}
          >
            <div className="flex flex-col gap-1">
              <Label htmlFor={ids.rate}>Hourly rate (CAD)</Label>
              <Input id={ids.rate} inputMode="decimal" value={rate} onChange={(event) => setRate(event.target.value)} />
            </div>
            <div className="flex flex-col gap-1">
              <Label htmlFor={ids.from}>Effective from (empty: now)</Label>
              <Input id={ids.from} type="datetime-local" value={from} onChange={(event) => setFrom(event.target.value)} />
            </div>
            <div className="flex flex-col gap-1">
              <Label htmlFor={ids.reason}>Reason</Label>
              <Input id={ids.reason} value={reason} maxLength={500} onChange={(event) => setReason(event.target.value)} />
            </div>
            {error ? (
              <p className="text-sm text-destructive" role="alert">
                {error}
              </p>
            ) : null}
            <DialogFooter>
              <Button type="button" variant="outline" disabled={change.isPending} onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={change.isPending}>
                {change.isPending ? 'Saving...' : 'Change rate'}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
