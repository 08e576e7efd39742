import {
  type AdminPurchaseListQuery,
  type AdminPurchaseRow,
  type AdminPurchaseStatus,
  adminPurchaseStatuses,
  adminPurchaseStatusLabels,
} from '@shared/purchases/adminPurchaseApi.ts';
import { REFUND_REASON_MAX } from '@shared/purchases/purchase.ts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SortingState } from '@tanstack/react-table';
import { Loader2, ShoppingCart } from 'lucide-react';
import { useId, useState } from 'react';
import { errorMessage } from '../../app/api.ts';
import { useCurrentUser } from '../../app/auth/useCurrentUser.ts';
import {
  DateRangeFilter,
  firstPageOnChange,
  SearchFilter,
  SelectFilter,
  serverPageQuery,
} from '../../components/console/ConsoleFilters.tsx';
import { ConsoleTable, consoleColumnHelper } from '../../components/console/ConsoleTable.tsx';
import { exactTime, shortDate } from '../../components/console/format.ts';
import { useDebouncedValue } from '../../components/console/useDebouncedValue.ts';
import { usePageInUrl } from '../../components/console/usePageInUrl.ts';
import { Badge, type BadgeVariant } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { useOpenEntityHistory } from '../operations/entityHistoryLink.ts';
import { purchasesConsoleApi } from './consoleApi.ts';

const PAGE_SIZE = 20;
/** Columns the server sorts by (adminPurchaseApi's sort keys). */
const SORTABLE = new Set(['createdAt', 'amountPaid', 'status', 'buyerName', 'studentName', 'subjectName']);
const ASCENDING_FIRST = new Set(['status', 'buyerName', 'studentName', 'subjectName']);
const STATUS_BADGE: Record<AdminPurchaseStatus, BadgeVariant> = {
  pending: 'secondary',
  completed: 'success',
  failed: 'destructive',
  abandoned: 'outline',
  refunded: 'outline',
};
/** A search is sent once typing pauses. */
const SEARCH_DELAY_MS = 300;

const dollars = (amount: number) => `$${amount.toFixed(2)}`;

function columnsFor(canRefund: boolean) {
  const helper = consoleColumnHelper<AdminPurchaseRow>();
  return helper.columns([
    helper.accessor('createdAt', {
      header: 'Bought',
      cell: ({ row }) => (
        <time dateTime={row.original.createdAt} title={exactTime(row.original.createdAt)} className="whitespace-nowrap">
          {shortDate(row.original.createdAt)}
        </time>
      ),
    }),
    helper.accessor('buyerName', { header: 'Buyer', cell: ({ row }) => row.original.buyerName ?? '—' }),
    helper.accessor('studentName', { header: 'Student', cell: ({ row }) => row.original.studentName ?? '—' }),
    helper.accessor('subjectName', {
      header: 'Subject',
      cell: ({ row }) => (
        <div className="min-w-32">
          <div className="text-slate-900">{row.original.subjectName ?? row.original.subjectId}</div>
          <div className="text-xs text-slate-600">
            {row.original.packageName ?? `${row.original.sessionCount} sessions`}
            {row.original.kind === 'repurchase' ? ' · repurchase' : ''}
          </div>
        </div>
      ),
    }),
    helper.accessor('amountPaid', {
      header: 'Paid',
      cell: ({ row }) => (
        <div className="whitespace-nowrap">
          {row.original.status === 'completed' || row.original.status === 'refunded' ? (
            <div className="text-slate-900">{dollars(row.original.amountPaid)}</div>
          ) : (
            <div className="text-slate-600" data-testid="purchase-not-charged">
              Nothing charged
              <span className="block text-xs">{dollars(row.original.amountAsked)} asked</span>
            </div>
          )}
          {row.original.promoCode ? <div className="text-xs text-slate-600">Code {row.original.promoCode}</div> : null}
        </div>
      ),
    }),
    helper.accessor('status', {
      header: 'Status',
      cell: ({ row }) => (
        <div className="min-w-28">
          <Badge variant={STATUS_BADGE[row.original.status]} data-testid="purchase-status">
            {adminPurchaseStatusLabels[row.original.status]}
          </Badge>
          {row.original.refund ? (
            <p className="mt-1 text-xs text-slate-600">
              {dollars(row.original.refund.amount)} and {row.original.refund.credits} session(s) back
            </p>
          ) : null}
        </div>
      ),
    }),
    helper.display({
      id: 'sessions',
      header: 'Sessions',
      cell: ({ row }) => (
        <span className="whitespace-nowrap" data-testid="purchase-sessions">
          {row.original.sessionsUsed} used · {row.original.sessionsBooked} booked · {row.original.sessionsRemaining} left
        </span>
      ),
    }),
    ...(canRefund
      ? [
          helper.display({
            id: 'actions',
            // Visible: an sr-only header is positioned outside the table's scroller and widens the page on a phone.
            header: 'Actions',
            // A free ($0) purchase has no money to give back: its credits are the course's to manage.
            cell: ({ row }) =>
              row.original.status === 'completed' && row.original.amountPaid > 0 ? <RefundButton purchase={row.original} /> : null,
          }),
        ]
      : []),
  ]);
}

/** Purchases (issue 12 §2): every package bought, searched, filtered and paged by the server; admins refund. */
export function PurchasesTab() {
  const { data: user } = useCurrentUser();
  const canRefund = user?.role === 'admin';
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<AdminPurchaseStatus | ''>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [sorting, setSorting] = useState<SortingState>([{ id: 'createdAt', desc: true }]);
  const [pagination, setPagination] = usePageInUrl(PAGE_SIZE);
  const ids = { search: useId(), status: useId(), from: useId(), to: useId() };
  const openHistory = useOpenEntityHistory();
  const searched = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);

  const query: AdminPurchaseListQuery = {
    ...(searched ? { search: searched } : {}),
    ...(status ? { status } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...serverPageQuery<NonNullable<AdminPurchaseListQuery['sort']>>(sorting, pagination, SORTABLE, 'createdAt'),
  };
  const purchases = useQuery({
    queryKey: purchasesConsoleApi.listKey(query),
    queryFn: purchasesConsoleApi.list(query),
    placeholderData: keepPreviousData,
  });
  const refilter = firstPageOnChange(setPagination);
  const filtered = Boolean(searched || status || from || to);

  return (
    <section aria-labelledby="purchases-heading" className="rounded-[var(--radius-card)] border border-border bg-white shadow-sm">
      <div className="flex flex-wrap items-end justify-between gap-3 border-b border-border px-5 py-4">
        <h2 id="purchases-heading" className="text-lg font-semibold text-slate-900">
          Purchases{purchases.data ? ` (${purchases.data.total})` : ''}
        </h2>
        <div className="flex w-full flex-wrap items-end gap-3 sm:w-auto">
          <SearchFilter
            id={ids.search}
            className="sm:w-56"
            value={search}
            placeholder="Buyer, student, subject, code"
            onChange={refilter(setSearch)}
          />
          <SelectFilter
            id={ids.status}
            label="Status"
            value={status}
            options={adminPurchaseStatuses}
            labelOf={(s) => adminPurchaseStatusLabels[s]}
            allLabel="All statuses"
            onChange={refilter((value: string) => setStatus(value as AdminPurchaseStatus | ''))}
          />
          <DateRangeFilter
            fromId={ids.from}
            toId={ids.to}
            from={from}
            to={to}
            onFromChange={refilter(setFrom)}
            onToChange={refilter(setTo)}
          />
          {purchases.isFetching && !purchases.isPending ? (
            <Loader2 className="mb-2 size-4 animate-spin text-slate-400" aria-label="Refreshing" />
          ) : null}
        </div>
      </div>

      <ConsoleTable
        label="Purchases"
        query={purchases}
        columns={columnsFor(canRefund)}
        getRowId={(row) => row.id}
        sortable={SORTABLE}
        ascendingFirst={ASCENDING_FIRST}
        sorting={sorting}
        onSortingChange={setSorting}
        pagination={pagination}
        onPaginationChange={setPagination}
        rowTestId="purchase-row"
        onOpenRow={(row) => openHistory('purchase', row.id)}
        rowNoun="purchase"
        empty={{
          icon: ShoppingCart,
          title: filtered ? 'No purchases match these filters' : 'No purchases yet',
          description: 'Session packages appear here as soon as a family starts a checkout.',
        }}
        loadErrorTitle="The purchases could not be loaded"
      />
    </section>
  );
}

function RefundButton({ purchase }: { purchase: AdminPurchaseRow }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="sm"
        variant="outline"
        onClick={() => setOpen(true)}
        aria-label={`Refund the purchase of ${purchase.studentName ?? 'this student'}`}
      >
        Refund
      </Button>
      {open ? <RefundDialog purchase={purchase} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/** What will be refunded (the server's figures, read when the dialog opens) and a required reason. */
function RefundDialog({ purchase, onClose }: { purchase: AdminPurchaseRow; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  // One key per opening: a double click or a retried request never refunds twice.
  const [idempotencyKey] = useState(() => `refund-${purchase.id}-${crypto.randomUUID()}`);
  const reasonId = useId();
  const queryClient = useQueryClient();
  const quote = useQuery({
    queryKey: purchasesConsoleApi.quoteKey(purchase.id),
    queryFn: purchasesConsoleApi.quote(purchase.id),
    staleTime: 0,
  });
  const refund = useMutation({
    mutationFn: () => purchasesConsoleApi.refund(purchase.id, reason.trim(), idempotencyKey),
    onSuccess: async (answer) => {
      onClose();
      toast({
        title: 'Purchase refunded',
        description: `${dollars(answer.amount)} refunded and ${answer.creditsRemoved} session(s) removed.`,
        variant: 'success',
      });
      await queryClient.invalidateQueries({ queryKey: purchasesConsoleApi.allKey });
    },
    onError: (e) => {
      toast({ title: 'Refund failed', description: errorMessage(e, 'The purchase could not be refunded'), variant: 'destructive' });
      void queryClient.invalidateQueries({ queryKey: purchasesConsoleApi.allKey });
    },
  });
  const submit = () => {
    if (!reason.trim()) {
      setError('Please give a reason for the refund');
      return;
    }
    setError(null);
    refund.mutate();
  };
  const nothingToRefund = quote.data !== undefined && quote.data.credits === 0;
  return (
    <Dialog open onOpenChange={(next) => !next && !refund.isPending && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Refund purchase</DialogTitle>
          <DialogDescription>
            {purchase.studentName ?? 'Student'} · {purchase.subjectName ?? purchase.subjectId} · paid {dollars(purchase.amountPaid)}
          </DialogDescription>
        </DialogHeader>
        <div aria-live="polite" className="rounded-md bg-slate-50 px-4 py-3 text-sm text-slate-700" data-testid="refund-quote">
          {quote.isPending ? (
            <span role="status">Working out what can be refunded…</span>
          ) : quote.isError ? (
            <span className="text-destructive">{errorMessage(quote.error, 'The refund could not be worked out')}</span>
          ) : nothingToRefund ? (
            'Every session of this purchase is used or booked: there is nothing left to refund.'
          ) : (
            <>
              <strong>{dollars(quote.data.amount)}</strong> back to the payer and <strong>{quote.data.credits}</strong> unused session(s)
              removed from the course. Sessions already used or booked stay.
            </>
          )}
        </div>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
          className="space-y-2"
        >
          <Label htmlFor={reasonId}>Reason</Label>
          <Textarea
            id={reasonId}
            value={reason}
            maxLength={REFUND_REASON_MAX}
            rows={3}
            aria-required="true"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${reasonId}-error` : undefined}
            onChange={(event) => setReason(event.target.value)}
            placeholder="For example: the family moved away"
          />
          {error ? (
            <p id={`${reasonId}-error`} className="text-sm text-destructive">
              {error}
            </p>
          ) : null}
          <DialogFooter>
            <Button type="button" variant="outline" disabled={refund.isPending} onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={refund.isPending || !quote.data || nothingToRefund}>
              {refund.isPending ? 'Refunding...' : 'Refund'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
