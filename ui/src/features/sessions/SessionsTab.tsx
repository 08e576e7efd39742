import {
  type AdminSession,
  type AdminSessionListQuery,
  adminSessionSortColumns,
  creditOutcome,
  hasStarted,
} from '@shared/sessions/adminSessionApi.ts';
import { type CreditPolicy, type SessionStatus, sessionStatuses } from '@shared/sessions/session.ts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SortingState } from '@tanstack/react-table';
import { CalendarX, Loader2, X } from 'lucide-react';
import { useCallback, useId, useMemo, useState } from 'react';
import { errorMessage } from '../../app/api.ts';
import {
  DateRangeFilter,
  firstPageOnChange,
  SearchFilter,
  SelectFilter,
  serverPageQuery,
} from '../../components/console/ConsoleFilters.tsx';
import { ConsoleTable, consoleColumnHelper } from '../../components/console/ConsoleTable.tsx';
import { exactTime, timeAgo } from '../../components/console/format.ts';
import { ReasonDialog } from '../../components/console/ReasonDialog.tsx';
import { useDebouncedValue } from '../../components/console/useDebouncedValue.ts';
import { usePageInUrl } from '../../components/console/usePageInUrl.ts';
import { Badge, type BadgeVariant } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { useOpenEntityHistory } from '../operations/entityHistoryLink.ts';
import { sessionsConsoleApi } from './consoleApi.ts';

const PAGE_SIZE = 20;
const SORTABLE = new Set<string>(adminSessionSortColumns);
const ASCENDING_FIRST = new Set(['tutor', 'student', 'subject', 'status']);
const STATUS_LABELS: Record<SessionStatus, string> = { scheduled: 'Scheduled', completed: 'Completed', cancelled: 'Cancelled' };
const STATUS_BADGE: Record<SessionStatus, BadgeVariant> = { scheduled: 'secondary', completed: 'success', cancelled: 'outline' };
const SYNC_LABELS: Record<AdminSession['calendarSyncStatus'], string> = {
  pending: 'Pending',
  synced: 'Synced',
  failed: 'Failed',
  removed: 'Removed',
};
const SYNC_BADGE: Record<AdminSession['calendarSyncStatus'], BadgeVariant> = {
  pending: 'outline',
  synced: 'success',
  failed: 'destructive',
  removed: 'outline',
};

const startFormat = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** A yyyy-MM-dd of the date input as the instant its day starts in the viewer's zone. */
const dayStart = (day: string, plusDays = 0) => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + plusDays).toISOString();
};

interface PersonFilter {
  id: string;
  name: string;
}

const helper = consoleColumnHelper<AdminSession>();

/** The table's columns; a click on a tutor's or student's name filters the list by them. */
function sessionColumns(filterBy: (person: PersonFilter, kind: 'tutor' | 'student') => void) {
  const personButton = (person: PersonFilter, kind: 'tutor' | 'student') => (
    <button
      type="button"
      className="rounded text-left font-medium text-slate-900 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
      aria-label={`Show only ${person.name || 'this person'}’s sessions`}
      onClick={() => filterBy(person, kind)}
    >
      {person.name || '—'}
    </button>
  );

  return helper.columns([
    helper.accessor('start', {
      header: 'Start',
      cell: ({ row }) => (
        <time dateTime={row.original.start} title={exactTime(row.original.start)} className="whitespace-nowrap">
          {startFormat.format(new Date(row.original.start))}
        </time>
      ),
    }),
    helper.accessor('tutorName', {
      id: 'tutor',
      header: 'Tutor',
      cell: ({ row }) => personButton({ id: row.original.tutorId, name: row.original.tutorName }, 'tutor'),
    }),
    helper.accessor('studentName', {
      id: 'student',
      header: 'Student',
      cell: ({ row }) => personButton({ id: row.original.studentId, name: row.original.studentName }, 'student'),
    }),
    helper.accessor('subjectName', {
      id: 'subject',
      header: 'Subject',
      cell: ({ row }) => <span className="min-w-32">{row.original.subjectName}</span>,
    }),
    helper.accessor('status', {
      header: 'Status',
      cell: ({ row }) => (
        <div className="min-w-24">
          <Badge variant={STATUS_BADGE[row.original.status]}>{STATUS_LABELS[row.original.status]}</Badge>
          {row.original.cancelCredit ? (
            <p className="mt-1 text-xs text-slate-600">Credit {row.original.cancelCredit === 'released' ? 'returned' : 'forfeited'}</p>
          ) : null}
        </div>
      ),
    }),
    helper.display({
      id: 'calendar',
      header: 'Calendar',
      cell: ({ row }) => (
        <Badge variant={SYNC_BADGE[row.original.calendarSyncStatus]}>{SYNC_LABELS[row.original.calendarSyncStatus]}</Badge>
      ),
    }),
    helper.accessor('bookedAt', {
      header: 'Booked',
      cell: ({ row }) => (
        <time dateTime={row.original.bookedAt} title={exactTime(row.original.bookedAt)} className="whitespace-nowrap">
          {timeAgo(row.original.bookedAt)}
        </time>
      ),
    }),
    helper.display({
      id: 'actions',
      // A visible word: an sr-only (absolute) label in a scrolled table widens the whole page on a phone.
      header: 'Actions',
      cell: ({ row }) => (row.original.status === 'scheduled' ? <CancelSessionAction session={row.original} /> : null),
    }),
  ]);
}

/** Sessions (issue 12 §2): every session, searched and filtered by the server; cancel one on anyone's behalf. */
export function SessionsTab() {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<SessionStatus | ''>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [tutor, setTutor] = useState<PersonFilter | null>(null);
  const [student, setStudent] = useState<PersonFilter | null>(null);
  const [sorting, setSorting] = useState<SortingState>([{ id: 'start', desc: true }]);
  const [pagination, setPagination] = usePageInUrl(PAGE_SIZE);
  const settledSearch = useDebouncedValue(search.trim());
  const openHistory = useOpenEntityHistory();
  const ids = { search: useId(), status: useId(), from: useId(), to: useId() };
  const refilter = firstPageOnChange(setPagination);

  const query: AdminSessionListQuery = {
    ...(settledSearch ? { search: settledSearch } : {}),
    ...(status ? { status } : {}),
    ...(tutor ? { tutorId: tutor.id } : {}),
    ...(student ? { studentId: student.id } : {}),
    ...(from ? { from: dayStart(from) } : {}),
    // The "to" day is included: the server's bound is exclusive.
    ...(to ? { to: dayStart(to, 1) } : {}),
    ...serverPageQuery<NonNullable<AdminSessionListQuery['sort']>>(sorting, pagination, SORTABLE, 'start'),
  };
  const sessions = useQuery({
    queryKey: sessionsConsoleApi.listKey(query),
    queryFn: sessionsConsoleApi.list(query),
    placeholderData: keepPreviousData,
  });

  // Stable columns: the table renders each cell function as a component, so new functions on every
  // render would remount the cells (and close a row's open dialog) whenever the list refetches.
  const filterBy = useCallback(
    (person: PersonFilter, kind: 'tutor' | 'student') => {
      (kind === 'tutor' ? setTutor : setStudent)(person);
      setPagination((p) => ({ ...p, pageIndex: 0 }));
    },
    [setPagination],
  );
  const columns = useMemo(() => sessionColumns(filterBy), [filterBy]);

  return (
    <section aria-labelledby="sessions-heading" className="rounded-[var(--radius-card)] border border-border bg-white shadow-sm">
      <div className="space-y-3 border-b border-border px-5 py-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="sessions-heading" className="text-lg font-semibold text-slate-900">
            Sessions{sessions.data ? ` (${sessions.data.total})` : ''}
          </h2>
          {sessions.isFetching && !sessions.isPending ? (
            <Loader2 className="size-4 animate-spin text-slate-400" aria-label="Refreshing" />
          ) : null}
        </div>
        <div className="flex flex-wrap items-end gap-3">
          <SearchFilter id={ids.search} value={search} placeholder="Tutor, student or subject" onChange={refilter(setSearch)} />
          <SelectFilter
            id={ids.status}
            label="Status"
            value={status}
            options={sessionStatuses}
            labelOf={(s) => STATUS_LABELS[s]}
            allLabel="All statuses"
            onChange={refilter((value: string) => setStatus(value as SessionStatus | ''))}
          />
          <DateRangeFilter
            fromId={ids.from}
            toId={ids.to}
            from={from}
            to={to}
            onFromChange={refilter(setFrom)}
            onToChange={refilter(setTo)}
          />
        </div>
        {tutor || student ? (
          <ul className="flex flex-wrap gap-2" aria-label="Active filters">
            {[
              { label: 'Tutor', person: tutor, clear: () => setTutor(null) },
              { label: 'Student', person: student, clear: () => setStudent(null) },
            ].map(({ label, person, clear }) =>
              person ? (
                <li key={label}>
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={`Clear the ${label.toLowerCase()} filter (${person.name})`}
                    onClick={refilter(clear)}
                  >
                    {label}: {person.name} <X aria-hidden="true" />
                  </Button>
                </li>
              ) : null,
            )}
          </ul>
        ) : null}
      </div>

      <ConsoleTable
        label="Sessions"
        query={sessions}
        columns={columns}
        getRowId={(row) => row.id}
        sortable={SORTABLE}
        ascendingFirst={ASCENDING_FIRST}
        sorting={sorting}
        onSortingChange={setSorting}
        pagination={pagination}
        onPaginationChange={setPagination}
        rowTestId="session-row"
        onOpenRow={(row) => openHistory('session', row.id)}
        rowNoun="session"
        empty={{
          icon: CalendarX,
          title: 'No sessions match',
          description: 'Try another search, or clear the filters.',
        }}
        loadErrorTitle="The sessions could not be loaded"
      />
    </section>
  );
}

/** "in 3 hours", "in 2 days": the notice the 12-hour rule reads. */
function noticeText(start: string, now: Date): string {
  const minutes = Math.floor((Date.parse(start) - now.getTime()) / 60_000);
  if (minutes < 0) return 'has already started';
  if (minutes < 120) return `starts in ${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `starts in ${hours} hours`;
  return `starts in ${Math.floor(hours / 24)} days`;
}

function CancelSessionAction({ session }: { session: AdminSession }) {
  const [open, setOpen] = useState(false);
  const [policy, setPolicy] = useState<CreditPolicy>('rule');
  const [now, setNow] = useState(() => new Date());
  const policyName = useId();
  const queryClient = useQueryClient();
  const cancel = useMutation({
    mutationFn: (reason: string) => sessionsConsoleApi.cancel(session.id, { reason, creditPolicy: policy }),
    onSuccess: async (answer) => {
      setOpen(false);
      toast({
        title: 'Session cancelled',
        description: `${session.subjectName} with ${session.tutorName}: the credit was ${answer.credit === 'released' ? 'returned to the course' : 'forfeited'}.`,
        variant: 'success',
      });
      await queryClient.invalidateQueries({ queryKey: sessionsConsoleApi.allKey });
    },
    onError: (e) => {
      toast({ title: 'Error', description: errorMessage(e, 'Failed to cancel the session'), variant: 'destructive' });
      void queryClient.invalidateQueries({ queryKey: sessionsConsoleApi.allKey });
    },
  });
  const byRule = creditOutcome(session.start, now, 'rule');
  const outcome = creditOutcome(session.start, now, policy);
  // Once a session has started no cancellation gives its credit back (the server refuses a refund).
  const started = hasStarted(session.start, now);
  const who = `${session.subjectName} with ${session.tutorName} for ${session.studentName}`;
  return (
    <>
      <Button
        size="sm"
        variant="outline"
        aria-label={`Cancel the session ${who}`}
        onClick={() => {
          setNow(new Date());
          setPolicy('rule');
          setOpen(true);
        }}
      >
        Cancel session
      </Button>
      <ReasonDialog
        open={open}
        onOpenChange={setOpen}
        title="Cancel this session?"
        description={
          <>
            <p>
              {who}, {exactTime(session.start)}. The tutor and the family are told, and the calendar event is removed.
            </p>
            <p className="mt-2">
              It {noticeText(session.start, now)}: under the 12-hour rule the credit is{' '}
              <strong>{byRule === 'released' ? 'returned to the course' : 'forfeited (the session counts as used)'}</strong>.
            </p>
          </>
        }
        reasonLabel="Reason"
        placeholder="For example: the tutor is ill"
        confirmLabel={outcome === 'released' ? 'Cancel and return the credit' : 'Cancel and forfeit the credit'}
        pendingLabel="Cancelling..."
        pending={cancel.isPending}
        destructive
        onConfirm={(reason) => cancel.mutate(reason)}
      >
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-900">Credit</legend>
          <label className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              name={policyName}
              value="rule"
              checked={policy === 'rule'}
              onChange={() => setPolicy('rule')}
              className="mt-0.5 accent-brand-700"
            />
            <span>Apply the 12-hour rule ({byRule === 'released' ? 'credit returned' : 'credit forfeited'})</span>
          </label>
          <label className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              name={policyName}
              value="refundCredit"
              checked={policy === 'refundCredit'}
              disabled={started}
              onChange={() => setPolicy('refundCredit')}
              className="mt-0.5 accent-brand-700"
            />
            <span>
              Return the credit to the course whatever the notice
              {started ? ' (not once the session has started)' : ''}
            </span>
          </label>
        </fieldset>
      </ReasonDialog>
    </>
  );
}
