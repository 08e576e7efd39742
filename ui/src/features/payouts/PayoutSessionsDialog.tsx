import type { PayoutLineView, PayoutSessionView } from '@shared/payouts/payoutApi.ts';
import { useQuery } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useState } from 'react';
import { errorMessage } from '../../app/api.ts';
import { exactTime } from '../../components/console/format.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { formatDay, formatMoney, payoutsApi } from './api.ts';

const STATUS_LABEL: Record<string, string> = { completed: 'Completed', cancelled: 'Cancelled late (paid)' };

/** Cents, so that adding dollars never drifts (0.1 + 0.2). */
const cents = (dollars: number) => Math.round(dollars * 100);

/**
 * The drill-down of a tutor's sessions line (issue 24 item 4): the payable sessions behind it,
 * when (in the viewer's zone), with whom, what, how long and what each pays at the line's rate.
 * A line is one tutor at one rate (two lines when the rate changed mid-period: each lists those at
 * its rate); they add up to it, except in an approved period whose sessions or rates changed
 * since (the difference is an adjustment of the next open period).
 */
export function PayoutSessionsButton({
  line,
  period,
  oneOfSeveral,
}: {
  line: PayoutLineView;
  period: { start: string; end: string };
  /** The tutor has several session lines (a rate change mid-period): this one lists the sessions at its rate. */
  oneOfSeveral: boolean;
}) {
  const [open, setOpen] = useState(false);
  const noun = line.sessions === 1 ? 'session' : 'sessions';
  return (
    <>
      <Button
        size="sm"
        variant="link"
        className="h-auto p-0"
        onClick={() => setOpen(true)}
        aria-label={`Show the ${line.sessions} ${noun} behind ${line.tutorName}'s line`}
        data-testid="payout-line-sessions"
      >
        {line.sessions} {noun}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="max-w-3xl">
          <DialogHeader>
            <DialogTitle>{line.tutorName}: sessions</DialogTitle>
            <DialogDescription>
              {formatDay(period.start)} – {formatDay(period.end)} · {line.sessions} {noun} at{' '}
              {line.rate === null ? 'no rate in force' : `${formatMoney(line.rate)}/h`}. Each session is paid one hour at the rate in force
              at its start.
            </DialogDescription>
          </DialogHeader>
          {open ? <SessionsBehind line={line} period={period} oneOfSeveral={oneOfSeveral} /> : null}
        </DialogContent>
      </Dialog>
    </>
  );
}

function SessionsBehind({ line, period, oneOfSeveral }: { line: PayoutLineView; period: { start: string }; oneOfSeveral: boolean }) {
  const query = useQuery({
    queryKey: payoutsApi.sessionsKey(period.start, line.tutorId),
    queryFn: payoutsApi.sessions(period.start, line.tutorId),
  });
  if (query.isPending) {
    return (
      <p className="flex items-center gap-2 py-6 text-sm text-slate-600">
        <Loader2 className="size-4 animate-spin" aria-hidden="true" /> Loading the sessions...
      </p>
    );
  }
  if (query.isError) {
    return (
      <LoadError
        title="The sessions could not be loaded"
        message={errorMessage(query.error, 'The server did not answer as expected.')}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  // A tutor's only line is all their sessions (also after a rate changed back in time); one of several lines, those at its rate.
  const rows: PayoutSessionView[] = oneOfSeveral ? query.data.sessions.filter((s) => s.rate === line.rate) : query.data.sessions;
  const totalCents = rows.reduce((sum, s) => sum + cents(s.amount), 0);
  const agrees = totalCents === cents(line.amount);
  return (
    <div>
      <table className="w-full text-left text-sm" aria-label={`Sessions behind ${line.tutorName}'s line`}>
        <thead className="bg-slate-50 text-xs font-semibold text-slate-600 uppercase">
          <tr>
            <th scope="col" className="px-2 py-2 first:pl-0">
              When
            </th>
            <th scope="col" className="px-2 py-2 first:pl-0">
              Student
            </th>
            <th scope="col" className="px-2 py-2 first:pl-0">
              Subject
            </th>
            <th scope="col" className="px-2 py-2 text-right last:pr-0">
              Amount
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {rows.map((s) => (
            <tr key={s.sessionId} data-testid="payout-session">
              <td className="px-2 py-2 first:pl-0">
                <time dateTime={s.start}>{exactTime(s.start)}</time>
                <div className="text-xs text-slate-500">
                  {s.durationMinutes === null ? '' : `${s.durationMinutes} min · `}
                  {STATUS_LABEL[s.status] ?? s.status}
                </div>
              </td>
              <td className="px-2 py-2 break-words first:pl-0">{s.studentName}</td>
              <td className="px-2 py-2 first:pl-0">{s.subject ?? '—'}</td>
              <td className="px-2 py-2 text-right last:pr-0">
                <span className="whitespace-nowrap">{formatMoney(s.amount)}</span>
                <div className="text-xs text-slate-500">{s.rate === null ? 'no rate' : `at ${formatMoney(s.rate)}/h`}</div>
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr className="border-t border-border font-semibold text-slate-900">
            <td className="px-2 py-2 first:pl-0" colSpan={3}>
              Total of {rows.length} {rows.length === 1 ? 'session' : 'sessions'}
            </td>
            <td className="px-2 py-2 text-right whitespace-nowrap last:pr-0" data-testid="payout-sessions-total">
              {formatMoney(totalCents / 100)}
            </td>
          </tr>
        </tfoot>
      </table>
      {agrees ? null : (
        <p className="mt-3 text-sm text-amber-700" data-testid="payout-sessions-changed">
          The sessions changed since this period was approved ({formatMoney(line.amount)} was frozen): the difference is paid as an
          adjustment in the next open period.
        </p>
      )}
    </div>
  );
}
