import {
  PARKED_REASON_MAX,
  type ParkedEventView,
  type ProjectionView,
  type RebuildProgressView,
} from '@shared/operations/projectionApi.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PaginationState } from '@tanstack/react-table';
import { CheckCircle2, DatabaseZap, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { errorMessage } from '../../app/api.ts';
import { ConfirmAction, ReasonAction } from '../../components/console/ConfirmAction.tsx';
import { ConsoleTable, consoleColumnHelper } from '../../components/console/ConsoleTable.tsx';
import { eventTypeLabel, exactTime, timeAgo } from '../../components/console/format.ts';
import { Badge, type BadgeVariant } from '../../components/ui/badge.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { systemApi } from './systemApi.ts';

const numbers = new Intl.NumberFormat('en-US');

const isRebuilding = (p: ProjectionView) => p.status === 'rebuilding';

const STATUS_BADGE: Record<string, BadgeVariant> = { running: 'success', rebuilding: 'secondary', stopped: 'destructive' };

/** "3 s", "2 min", "1 h 5 min": how far behind the log a projection is. */
export function lagText(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

const PHASE_LABEL: Record<RebuildProgressView['phase'], string> = {
  requested: 'Waiting to start',
  replaying: 'Replaying the log',
  indexing: 'Building indexes',
  swapping: 'Swapping in the new tables',
  completed: 'Rebuilt',
  failed: 'Rebuild failed',
};

/** The current index build's share done (PostgreSQL counts blocks scanned, then tuples loaded). */
const indexPercent = (rebuild: RebuildProgressView) =>
  rebuild.stepTotal ? Math.min(100, Math.floor(((rebuild.stepDone ?? 0) / rebuild.stepTotal) * 100)) : 0;

function RebuildProgress({ name, rebuild }: { name: string; rebuild: RebuildProgressView }) {
  const percent = rebuild.total > 0 ? Math.min(100, Math.floor((rebuild.done / rebuild.total) * 100)) : 0;
  return (
    <div className="mt-2 w-44" data-testid="rebuild-progress">
      <div
        role="progressbar"
        aria-label={`Rebuild of ${name}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${PHASE_LABEL[rebuild.phase]}: ${numbers.format(rebuild.done)} of ${numbers.format(rebuild.total)} events`}
        className="h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full bg-brand-700 transition-[width] duration-500" style={{ width: `${percent}%` }} />
      </div>
      <p className="mt-1 text-xs text-slate-600">
        {PHASE_LABEL[rebuild.phase]} · {numbers.format(rebuild.done)}/{numbers.format(rebuild.total)}
        {rebuild.phase === 'indexing' && rebuild.stepTotal ? ` · indexes ${indexPercent(rebuild)}%` : ''}
        {rebuild.eventsPerSecond ? ` · ${numbers.format(Math.round(rebuild.eventsPerSecond))} ev/s` : ''}
        {rebuild.finishedAt ? (
          <>
            {' · '}
            <time dateTime={rebuild.finishedAt} title={exactTime(rebuild.finishedAt)}>
              {timeAgo(rebuild.finishedAt)}
            </time>
          </>
        ) : null}
      </p>
    </div>
  );
}

function useRebuild() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string | null) => (name === null ? systemApi.rebuildAll() : systemApi.rebuild(name)),
    onSuccess: async (accepted) => {
      toast({
        title: 'Rebuild started',
        description: `${accepted.projections.length === 1 ? accepted.projections[0] : `${accepted.projections.length} projections`} will be rebuilt in the background.`,
        variant: 'success',
      });
      await queryClient.invalidateQueries({ queryKey: systemApi.projectionsKey });
    },
    onError: (e) => {
      toast({ title: 'Error', description: errorMessage(e, 'The rebuild could not be started'), variant: 'destructive' });
      void queryClient.invalidateQueries({ queryKey: systemApi.projectionsKey });
    },
  });
}

function RebuildButton({ projection }: { projection: ProjectionView }) {
  const rebuild = useRebuild();
  if (!projection.rebuildable) return <span className="text-xs text-slate-500">Reactor: never rebuilt</span>;
  return (
    <ConfirmAction
      label="Rebuild"
      icon={<RefreshCw aria-hidden="true" />}
      title={`Rebuild ${projection.name}?`}
      description="The whole log is replayed into fresh tables in the background. The site keeps reading the current tables until the new ones are swapped in."
      confirmLabel="Rebuild"
      pending={rebuild.isPending}
      disabled={isRebuilding(projection)}
      onConfirm={() => rebuild.mutate(projection.name)}
    />
  );
}

/**
 * Where a projection is in the log, in words (issue 24 item 4): up to date or how many events
 * behind (and for how long the oldest has waited), and when its last applied event was recorded
 * in the viewer's zone. The raw position stays one click away for whoever compares checkpoints.
 */
function PositionInWords({ projection: p }: { projection: ProjectionView }) {
  const behind = p.lagEvents === 1 ? '1 event behind' : `${numbers.format(p.lagEvents)} events behind`;
  return (
    <div className="min-w-40 max-w-52" data-testid="projection-position">
      {p.lagEvents === 0 ? (
        <p className="font-medium text-slate-900">Up to date</p>
      ) : (
        <p className="font-medium whitespace-nowrap text-amber-800">
          {behind} · {lagText(p.lagMs)}
        </p>
      )}
      <p className="text-xs text-slate-600">
        {p.lastEventAt ? (
          <>
            Last event{' '}
            <time dateTime={p.lastEventAt} title={timeAgo(p.lastEventAt)}>
              {exactTime(p.lastEventAt)}
            </time>
          </>
        ) : (
          'No event applied yet'
        )}
      </p>
      {p.position ? (
        <details className="mt-1 text-xs text-slate-500">
          <summary className="cursor-pointer">Raw position</summary>
          <code className="block font-mono break-all" title={p.position}>
            {p.position}
          </code>
        </details>
      ) : null}
    </div>
  );
}

const projectionHelper = consoleColumnHelper<ProjectionView>();
const projectionColumns = projectionHelper.columns([
  projectionHelper.accessor('name', {
    header: 'Name',
    cell: ({ row }) => (
      <div>
        <div className="font-medium whitespace-nowrap text-slate-900">{row.original.name}</div>
        <div className="text-xs text-slate-500">{row.original.kind}</div>
      </div>
    ),
  }),
  projectionHelper.accessor('status', {
    header: 'Status',
    cell: ({ row }) => {
      const p = row.original;
      return (
        <div>
          <Badge variant={STATUS_BADGE[p.status] ?? 'outline'}>{p.status}</Badge>
          {/* The last rebuild stays shown: a small one can end between two polls. */}
          {p.rebuild ? <RebuildProgress name={p.name} rebuild={p.rebuild} /> : null}
          {p.rebuild?.status === 'failed' && p.rebuild.error ? (
            <p className="mt-1 max-w-56 text-xs break-words text-destructive">{p.rebuild.error}</p>
          ) : null}
        </div>
      );
    },
  }),
  projectionHelper.accessor('position', {
    header: 'Position',
    cell: ({ row }) => <PositionInWords projection={row.original} />,
  }),
  projectionHelper.accessor('rows', {
    header: 'Rows',
    cell: ({ row }) => (row.original.rows === null ? '—' : numbers.format(row.original.rows)),
  }),
  projectionHelper.accessor('lastError', {
    header: 'Last error',
    cell: ({ row }) =>
      row.original.lastError ? (
        <p className="max-w-64 text-xs break-words text-destructive">
          {row.original.parked > 0 ? `${row.original.parked} parked · ` : ''}
          {row.original.lastError}
        </p>
      ) : (
        <span className="text-slate-500">—</span>
      ),
  }),
  projectionHelper.display({ id: 'actions', header: 'Actions', cell: ({ row }) => <RebuildButton projection={row.original} /> }),
]);

/** Projections (issue 12 §7): lag and status of every read model, rebuilds with live progress, parked events. */
export function ProjectionsTab() {
  const projections = useQuery({
    queryKey: systemApi.projectionsKey,
    queryFn: systemApi.projections,
    // Live progress while a rebuild runs (the server writes it at least every second).
    refetchInterval: (query) => (query.state.data?.some(isRebuilding) ? 1000 : 5000),
    select: (rows) => ({ rows, total: rows.length }),
  });
  const rebuildAll = useRebuild();
  const anyRebuilding = projections.data?.rows.some(isRebuilding) ?? false;

  return (
    <div className="space-y-6">
      <section aria-labelledby="projections-heading" className="rounded-[var(--radius-card)] border border-border bg-white shadow-sm">
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-border px-5 py-4">
          <h2 id="projections-heading" className="text-lg font-semibold text-slate-900">
            Read models{projections.data ? ` (${projections.data.total})` : ''}
          </h2>
          <ConfirmAction
            label="Rebuild all"
            icon={<DatabaseZap aria-hidden="true" />}
            title="Rebuild every projection?"
            description="Every read model is rebuilt from the whole log in the background, into fresh tables. The site keeps reading the current ones until each is swapped in. Reactors (mails, jobs) are never replayed."
            confirmLabel="Rebuild all"
            variant="default"
            pending={rebuildAll.isPending}
            disabled={anyRebuilding}
            onConfirm={() => rebuildAll.mutate(null)}
          />
        </div>
        <ConsoleTable
          label="Projections"
          query={projections}
          columns={projectionColumns}
          getRowId={(row) => row.name}
          rowTestId="projection-row"
          empty={{ icon: DatabaseZap, title: 'No projections', description: 'The projection runner has not set any up yet.' }}
          loadErrorTitle="The projections could not be loaded"
        />
      </section>
      <ParkedEvents />
    </div>
  );
}

function ParkedDecision({ event }: { event: ParkedEventView }) {
  const queryClient = useQueryClient();
  const decide = useMutation({
    mutationFn: ({ decision, reason }: { decision: 'retry' | 'skip'; reason: string }) =>
      systemApi.decideParked(event.projector, event.eventId, decision, reason),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: systemApi.parkedKey }),
        queryClient.invalidateQueries({ queryKey: systemApi.projectionsKey }),
      ]),
  });
  const run = (decision: 'retry' | 'skip') => async (reason: string) => {
    try {
      const outcome = await decide.mutateAsync({ decision, reason });
      if (outcome.error) {
        toast({ title: 'Still failing', description: outcome.error, variant: 'destructive' });
      } else {
        toast({
          title: decision === 'retry' ? 'Event applied' : 'Event skipped',
          description: `${outcome.applied.length} event(s) of ${outcome.streamId} applied.`,
          variant: 'success',
        });
      }
      return true;
    } catch (e) {
      toast({ title: 'Error', description: errorMessage(e, 'The decision could not be recorded'), variant: 'destructive' });
      return false;
    }
  };
  if (event.status !== 'failed') return <span className="text-xs text-slate-500">Waits behind its stream's failed event</span>;
  const what = `${event.type} in ${event.streamId}`;
  return (
    <div className="flex flex-wrap gap-2">
      <ReasonAction
        label="Retry"
        title="Retry this event"
        description={`Apply ${what} again (and what waits behind it). Say why it should work now.`}
        submitLabel="Retry"
        pendingLabel="Retrying..."
        placeholder="For example: the projector bug is fixed in the current release"
        maxLength={PARKED_REASON_MAX}
        pending={decide.isPending}
        onSubmit={run('retry')}
      />
      <ReasonAction
        label="Skip"
        title="Skip this event"
        description={`Leave ${what} out of ${event.projector} for good. The reason is recorded.`}
        submitLabel="Skip event"
        pendingLabel="Skipping..."
        placeholder="For example: test data written by hand"
        maxLength={PARKED_REASON_MAX}
        pending={decide.isPending}
        onSubmit={run('skip')}
      />
    </div>
  );
}

const parkedHelper = consoleColumnHelper<ParkedEventView>();
const parkedColumns = parkedHelper.columns([
  parkedHelper.accessor('projector', {
    header: 'Projection',
    cell: ({ row }) => <span className="whitespace-nowrap">{row.original.projector}</span>,
  }),
  parkedHelper.accessor('type', {
    header: 'Event',
    cell: ({ row }) => (
      <div>
        <div className="font-medium text-slate-900" title={row.original.type}>
          {eventTypeLabel(row.original.type)}
        </div>
        <div className="max-w-56 truncate font-mono text-xs text-slate-500" title={row.original.streamId}>
          {row.original.streamId} #{row.original.revision}
        </div>
      </div>
    ),
  }),
  parkedHelper.accessor('error', {
    header: 'Error',
    cell: ({ row }) => <p className="max-w-72 text-xs break-words text-slate-700">{row.original.error ?? '—'}</p>,
  }),
  parkedHelper.accessor('parkedAt', {
    header: 'Parked',
    cell: ({ row }) => (
      <time dateTime={row.original.parkedAt} title={exactTime(row.original.parkedAt)} className="whitespace-nowrap">
        {timeAgo(row.original.parkedAt)}
      </time>
    ),
  }),
  parkedHelper.display({ id: 'actions', header: 'Actions', cell: ({ row }) => <ParkedDecision event={row.original} /> }),
]);

function ParkedEvents() {
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: 20 });
  const parked = useQuery({
    queryKey: systemApi.parkedKey,
    queryFn: systemApi.parked,
    refetchInterval: 5000,
    select: (rows) => ({
      rows: rows.slice(pagination.pageIndex * pagination.pageSize, (pagination.pageIndex + 1) * pagination.pageSize),
      total: rows.length,
    }),
  });
  return (
    <section aria-labelledby="parked-heading" className="rounded-[var(--radius-card)] border border-border bg-white shadow-sm">
      <div className="border-b border-border px-5 py-4">
        <h2 id="parked-heading" className="text-lg font-semibold text-slate-900">
          Parked events{parked.data ? ` (${parked.data.total})` : ''}
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Events a projection could not apply. Retry one after a fix, or skip it; either way the reason is recorded.
        </p>
      </div>
      <ConsoleTable
        label="Parked events"
        query={parked}
        columns={parkedColumns}
        getRowId={(row) => `${row.projector}/${row.eventId}`}
        pagination={pagination}
        onPaginationChange={setPagination}
        rowTestId="parked-row"
        empty={{ icon: CheckCircle2, title: 'No parked events', description: 'Every projection applied every event.' }}
        loadErrorTitle="The parked events could not be loaded"
      />
    </section>
  );
}
