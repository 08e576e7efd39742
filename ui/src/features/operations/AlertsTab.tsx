import {
  type AlertListQuery,
  type AlertSubject,
  type AlertType,
  type AlertView,
  alertStatuses,
  alertTypeLabels,
  alertTypes,
} from '@shared/operations/alertApi.ts';
import { entityKindLabels } from '@shared/operations/entityKinds.ts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SortingState } from '@tanstack/react-table';
import { BellOff, Check, Loader2 } from 'lucide-react';
import { useId, useState } from 'react';
import { errorMessage } from '../../app/api.ts';
import { firstPageOnChange, SelectFilter, serverPageQuery } from '../../components/console/ConsoleFilters.tsx';
import { ConsoleTable, consoleColumnHelper } from '../../components/console/ConsoleTable.tsx';
import { exactTime, readableText, timeAgo } from '../../components/console/format.ts';
import { usePageInUrl } from '../../components/console/usePageInUrl.ts';
import { Badge, type BadgeVariant } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { alertsApi } from './alertsApi.ts';
import { EntityLink } from './EntityLink.tsx';

const PAGE_SIZE = 20;
type Status = (typeof alertStatuses)[number];
const STATUS_LABELS: Record<Status, string> = { open: 'Unresolved', resolved: 'Resolved', all: 'All' };
const SEVERITY_BADGE: Record<AlertView['severity'], BadgeVariant> = { high: 'destructive', medium: 'secondary', low: 'outline' };
/** Columns the server sorts by (alertApi's sort keys); the others are not sortable. */
const SORTABLE = new Set(['createdAt', 'severity', 'type']);
const ASCENDING_FIRST = new Set(['type']);

const typeLabel = (type: string) => alertTypeLabels[type as AlertType] ?? type;

const helper = consoleColumnHelper<AlertView>();
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
        {row.original.description ? (
          <p className="mt-0.5 text-xs break-words text-slate-600">{readableText(row.original.description, namesOf(row.original))}</p>
        ) : null}
        <AlertAbout about={row.original.about ?? []} />
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
  const [pagination, setPagination] = usePageInUrl(PAGE_SIZE);
  const ids = { status: useId(), type: useId() };

  const query: AlertListQuery = {
    status,
    ...(type ? { type } : {}),
    ...serverPageQuery<NonNullable<AlertListQuery['sort']>>(sorting, pagination, SORTABLE, 'createdAt'),
  };
  const alerts = useQuery({ queryKey: alertsApi.listKey(query), queryFn: alertsApi.list(query), placeholderData: keepPreviousData });

  const refilter = firstPageOnChange(setPagination);

  return (
    <section aria-labelledby="alerts-heading" className="rounded-[var(--radius-card)] border border-border bg-white shadow-sm">
      <div className="flex flex-wrap items-end justify-between gap-3 border-b border-border px-5 py-4">
        <h2 id="alerts-heading" className="text-lg font-semibold text-slate-900">
          {STATUS_LABELS[status]} alerts{alerts.data ? ` (${alerts.data.total})` : ''}
        </h2>
        <div className="flex flex-wrap items-end gap-3">
          <SelectFilter
            id={ids.status}
            label="Status"
            value={status}
            options={alertStatuses}
            labelOf={(s) => STATUS_LABELS[s]}
            onChange={refilter((value: string) => setStatus(value as Status))}
          />
          <SelectFilter
            id={ids.type}
            label="Type"
            value={type}
            options={alertTypes}
            labelOf={(t) => alertTypeLabels[t]}
            allLabel="All types"
            onChange={refilter((value: string) => setType(value as AlertType | ''))}
          />
          {alerts.isFetching && !alerts.isPending ? (
            <Loader2 className="mb-2 size-4 animate-spin text-slate-400" aria-label="Refreshing" />
          ) : null}
        </div>
      </div>

      <ConsoleTable
        label="Alerts"
        query={alerts}
        columns={columns}
        getRowId={(row) => row.id}
        sortable={SORTABLE}
        ascendingFirst={ASCENDING_FIRST}
        sorting={sorting}
        onSortingChange={setSorting}
        pagination={pagination}
        onPaginationChange={setPagination}
        rowTestId="alert-row"
        empty={{
          icon: BellOff,
          title: status === 'open' ? 'No unresolved alerts' : 'No alerts match these filters',
          description: 'Failed payments, lost calendar access and stopped background work appear here when they happen.',
        }}
        loadErrorTitle="The alerts could not be loaded"
      />
    </section>
  );
}

/** The ids an alert's text names, with the names the server resolved for them. */
const namesOf = (alert: AlertView) => new Map((alert.about ?? []).flatMap((a) => (a.name ? [[a.id, a.name] as const] : [])));

/** Links to what the alert is about (its purchase, session, student, person), each opening that history. */
function AlertAbout({ about }: { about: AlertSubject[] }) {
  if (about.length === 0) return null;
  return (
    <ul className="mt-1 flex flex-wrap gap-x-3 gap-y-0.5 text-xs" aria-label="About">
      {about.map((subject) => (
        <li key={`${subject.kind}:${subject.id}`} className="text-slate-500">
          {entityKindLabels[subject.kind]}: <EntityLink kind={subject.kind} id={subject.id} name={subject.name} />
        </li>
      ))}
    </ul>
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
