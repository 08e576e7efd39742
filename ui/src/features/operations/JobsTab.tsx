import { type FailedJobView, jobStates, type QueueCountsView, type ScheduleView } from '@shared/operations/jobApi.ts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PaginationState } from '@tanstack/react-table';
import { CalendarClock, CheckCircle2, Cog, RotateCw, X } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { errorMessage } from '../../app/api.ts';
import { ConfirmAction } from '../../components/console/ConfirmAction.tsx';
import { ConsoleTable, consoleColumnHelper } from '../../components/console/ConsoleTable.tsx';
import { exactTime, timeAgo } from '../../components/console/format.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { systemApi } from './systemApi.ts';

const numbers = new Intl.NumberFormat('en-US');

const queueHelper = consoleColumnHelper<QueueCountsView>();
const queueColumns = queueHelper.columns([
  queueHelper.accessor('name', {
    header: 'Queue',
    cell: ({ row }) => <span className="font-medium whitespace-nowrap text-slate-900">{row.original.name}</span>,
  }),
  ...jobStates.map((state) =>
    queueHelper.display({
      id: state,
      header: state,
      cell: ({ row }) => {
        const count = row.original.counts[state];
        return (
          <span className={state === 'failed' && count > 0 ? 'font-semibold text-destructive' : undefined}>{numbers.format(count)}</span>
        );
      },
    }),
  ),
  queueHelper.display({
    id: 'deadLetter',
    header: 'Dead-lettered',
    cell: ({ row }) => {
      const c = row.original.deadLetter.counts;
      const waiting = c.created + c.retry + c.active;
      const total = jobStates.reduce((sum, s) => sum + c[s], 0);
      return (
        <span title={`${row.original.deadLetter.name}: ${waiting} waiting, ${total} in all`}>
          {numbers.format(total)}
          {waiting > 0 ? <span className="text-xs text-slate-500"> ({numbers.format(waiting)} waiting)</span> : null}
        </span>
      );
    },
  }),
]);

function JobActions({ job }: { job: FailedJobView }) {
  const queryClient = useQueryClient();
  const act = useMutation({
    mutationFn: (action: 'retry' | 'cancel') => systemApi.jobAction(job.queue, job.id, action),
    onSuccess: (answer) =>
      toast({
        title: answer.status === 'retried' ? 'Job queued again' : 'Job cancelled',
        description: `${job.queue} · ${job.id}`,
        variant: 'success',
      }),
    onError: (e) => toast({ title: 'Error', description: errorMessage(e, 'The job could not be changed'), variant: 'destructive' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: systemApi.jobsKey }),
  });
  return (
    <div className="flex flex-wrap gap-2">
      <ConfirmAction
        label="Retry"
        icon={<RotateCw aria-hidden="true" />}
        title="Retry this job?"
        description={`The ${job.queue} job runs once more. Its side effect (a mail, a calendar write) happens if it succeeds this time.`}
        confirmLabel="Retry job"
        pending={act.isPending && act.variables === 'retry'}
        disabled={act.isPending}
        onConfirm={() => act.mutate('retry')}
      />
      <ConfirmAction
        label="Cancel"
        icon={<X aria-hidden="true" />}
        title="Cancel this job?"
        description="Only a job that is waiting, retrying or running can be cancelled; it will not run again."
        confirmLabel="Cancel job"
        variant="destructive"
        pending={act.isPending && act.variables === 'cancel'}
        disabled={act.isPending}
        onConfirm={() => act.mutate('cancel')}
      />
    </div>
  );
}

const failedHelper = consoleColumnHelper<FailedJobView>();
const failedColumns = failedHelper.columns([
  failedHelper.accessor('queue', {
    header: 'Job',
    cell: ({ row }) => (
      <div>
        <div className="font-medium whitespace-nowrap text-slate-900">{row.original.queue}</div>
        <div className="font-mono text-xs text-slate-500">{row.original.id}</div>
        {row.original.deadLetterId ? (
          <Badge variant="outline" className="mt-1">
            dead-lettered
          </Badge>
        ) : null}
      </div>
    ),
  }),
  failedHelper.accessor('error', {
    header: 'Error',
    cell: ({ row }) => <p className="max-w-80 text-xs break-words text-destructive">{row.original.error ?? '—'}</p>,
  }),
  failedHelper.accessor('refs', {
    header: 'Refers to',
    cell: ({ row }) => {
      const refs = Object.entries(row.original.refs);
      if (refs.length === 0) return <span className="text-slate-500">—</span>;
      return (
        <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-xs">
          {refs.map(([key, value]) => (
            <div key={key} className="contents">
              <dt className="text-slate-500">{key}</dt>
              <dd className="max-w-48 truncate font-mono" title={value}>
                {value}
              </dd>
            </div>
          ))}
        </dl>
      );
    },
  }),
  failedHelper.accessor('retryCount', {
    header: 'Attempts',
    cell: ({ row }) => numbers.format(row.original.retryCount + 1),
  }),
  failedHelper.accessor('failedOn', {
    header: 'Failed',
    cell: ({ row }) =>
      row.original.failedOn ? (
        <time dateTime={row.original.failedOn} title={exactTime(row.original.failedOn)} className="whitespace-nowrap">
          {timeAgo(row.original.failedOn)}
        </time>
      ) : (
        '—'
      ),
  }),
  failedHelper.display({ id: 'actions', header: 'Actions', cell: ({ row }) => <JobActions job={row.original} /> }),
]);

const scheduleHelper = consoleColumnHelper<ScheduleView>();
const scheduleColumns = scheduleHelper.columns([
  scheduleHelper.accessor('queue', {
    header: 'Queue',
    cell: ({ row }) => <span className="font-medium text-slate-900">{row.original.queue}</span>,
  }),
  scheduleHelper.accessor('cron', {
    header: 'Cron',
    cell: ({ row }) => (
      <span className="font-mono text-xs whitespace-nowrap">
        {row.original.cron} <span className="text-slate-500">({row.original.timezone})</span>
      </span>
    ),
  }),
  scheduleHelper.accessor('nextRunAt', {
    header: 'Next run',
    cell: ({ row }) =>
      row.original.nextRunAt ? (
        <time dateTime={row.original.nextRunAt} title={exactTime(row.original.nextRunAt)} className="whitespace-nowrap">
          {exactTime(row.original.nextRunAt)}
        </time>
      ) : (
        '—'
      ),
  }),
]);

function Section({ id, title, description, children }: { id: string; title: string; description?: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-[var(--radius-card)] border border-border bg-white shadow-sm">
      <div className="border-b border-border px-5 py-4">
        <h2 id={id} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
      </div>
      {children}
    </section>
  );
}

/** Jobs (issue 12 §8): pg-boss queues by state, jobs that failed for good with retry and cancel, schedules. */
export function JobsTab() {
  // One request; each table selects its part of the answer.
  const queues = useQuery({
    queryKey: systemApi.jobsKey,
    queryFn: systemApi.jobs,
    refetchInterval: 5000,
    select: (o) => ({ rows: o.queues, total: o.queues.length }),
  });
  const schedules = useQuery({
    queryKey: systemApi.jobsKey,
    queryFn: systemApi.jobs,
    refetchInterval: 5000,
    select: (o) => ({ rows: o.schedules, total: o.schedules.length }),
  });
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: 25 });
  const failed = useQuery({
    queryKey: systemApi.failedJobsKey(pagination.pageIndex + 1),
    queryFn: systemApi.failedJobs(pagination.pageIndex + 1),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
    select: (page) => ({ rows: page.jobs, total: page.total }),
  });
  return (
    <div className="space-y-6">
      <Section id="queues-heading" title="Queues" description="Jobs counted by state; dead-lettered jobs gave up after their retries.">
        <ConsoleTable
          label="Queues"
          query={queues}
          columns={queueColumns}
          getRowId={(row) => row.name}
          rowTestId="queue-row"
          empty={{ icon: Cog, title: 'No queues', description: 'No background work is defined.' }}
          loadErrorTitle="The queues could not be loaded"
        />
      </Section>
      <Section
        id="failed-jobs-heading"
        title={`Failed jobs${failed.data ? ` (${failed.data.total})` : ''}`}
        description="Jobs whose retries are spent, newest first. Only identifiers from their data are shown."
      >
        <ConsoleTable
          label="Failed jobs"
          query={failed}
          columns={failedColumns}
          getRowId={(row) => row.id}
          pagination={pagination}
          onPaginationChange={setPagination}
          rowTestId="failed-job-row"
          empty={{ icon: CheckCircle2, title: 'No failed jobs', description: 'Every job finished or is still being retried.' }}
          loadErrorTitle="The failed jobs could not be loaded"
        />
      </Section>
      <Section id="schedules-heading" title="Schedules" description="Recurring jobs and when they run next.">
        <ConsoleTable
          label="Schedules"
          query={schedules}
          columns={scheduleColumns}
          getRowId={(row) => `${row.queue}/${row.key}`}
          rowTestId="schedule-row"
          empty={{ icon: CalendarClock, title: 'No schedules', description: 'No recurring jobs are scheduled.' }}
          loadErrorTitle="The schedules could not be loaded"
        />
      </Section>
    </div>
  );
}
