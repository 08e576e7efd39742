import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarCheck2, CalendarClock, CalendarX2, Loader2, RefreshCw } from 'lucide-react';
import type * as React from 'react';
import { serverMessage } from '../../app/api.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading, PendingButton } from '../../components/parts.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { lastSyncText, plural, SYNC_POLL_MS, syncState, unsyncedCount } from '../../lib/sessionFormat.ts';
import { tutorKeys, tutorsApi } from './api.ts';
import { useNow } from './useNow.ts';

/**
 * The calendar sync card (spec part 2 §2, §4, §9): no sessions, failed (with Sync now), pending,
 * or all synced, with the last write's time; polls every 30 seconds. Sync now brings the calendar
 * in step at once (the 5-minute sync does the same on its own).
 */
export function CalendarSyncCard({ tutorId, zone }: { tutorId: string; zone: string }) {
  const queryClient = useQueryClient();
  const now = useNow();
  const status = useQuery({
    queryKey: tutorKeys.syncStatus(tutorId),
    queryFn: () => tutorsApi.syncStatus(tutorId),
    refetchInterval: SYNC_POLL_MS,
  });
  const sync = useMutation({
    mutationFn: () => tutorsApi.syncCalendar(tutorId),
    onSuccess: async (answer) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: tutorKeys.syncStatus(tutorId) }),
        queryClient.invalidateQueries({ queryKey: tutorKeys.sessions(tutorId) }),
      ]);
      if (answer.errors.length > 0) {
        toast({
          title: 'Calendar Sync Complete',
          description: `${plural(answer.updatedSessions, 'session')} updated; ${plural(answer.errors.length, 'session')} could not be synced.`,
          variant: 'destructive',
        });
      } else {
        toast({
          title: 'Calendar Sync Complete',
          description: `${plural(answer.updatedSessions, 'session')} updated.`,
          variant: 'success',
        });
      }
    },
    onError: (e) => toast({ title: 'Sync Failed', description: serverMessage(e, 'Failed to sync calendar'), variant: 'destructive' }),
  });

  let body: React.ReactNode;
  if (status.isPending) {
    body = <Loading label="Checking your calendar sync..." />;
  } else if (status.isError) {
    body = (
      <LoadError
        title="Could not check your calendar sync"
        message={serverMessage(status.error, 'Please try again.')}
        onRetry={() => void status.refetch()}
        retrying={status.isRefetching}
      />
    );
  } else {
    const s = status.data;
    const state = syncState(s);
    const last = <p className="text-xs text-slate-500">Last synced: {lastSyncText(s.lastSyncTime, now, zone)}</p>;
    body =
      state === 'none' ? (
        <p className="text-sm text-slate-600">No sessions to sync yet. Sessions appear here once students book you.</p>
      ) : state === 'failed' ? (
        <div className="grid gap-3">
          <div className="flex items-start gap-2 text-sm text-destructive-text">
            <CalendarX2 className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <p>
              {plural(unsyncedCount(s), 'session')} could not be added to your calendar. {s.syncedSessions} of {s.totalSessions} synced.
            </p>
          </div>
          {last}
          <div>
            <PendingButton
              size="sm"
              variant="outline"
              pending={sync.isPending}
              onClick={() => sync.mutate()}
              label={
                <>
                  <RefreshCw aria-hidden="true" />
                  Sync now
                </>
              }
              pendingLabel="Syncing..."
            />
          </div>
        </div>
      ) : state === 'pending' ? (
        <div className="grid gap-2">
          <div className="flex items-start gap-2 text-sm text-slate-700">
            <Loader2 className="mt-0.5 size-4 shrink-0 animate-spin text-brand-700" aria-hidden="true" />
            <p>
              {plural(s.pendingSessions, 'session')} waiting to be added to your calendar. {s.syncedSessions} of {s.totalSessions} synced.
            </p>
          </div>
          {last}
        </div>
      ) : (
        <div className="grid gap-2">
          <div className="flex items-start gap-2 text-sm text-success">
            <CalendarCheck2 className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <p>
              All sessions synced: {s.syncedSessions} of {s.totalSessions} upcoming {s.totalSessions === 1 ? 'session is' : 'sessions are'}{' '}
              in your calendar.
            </p>
          </div>
          {last}
        </div>
      );
  }

  return (
    <Card data-testid="calendar-sync">
      <CardHeader>
        <CardTitle as="h2" className="flex items-center gap-2">
          <CalendarClock className="size-5 text-brand-700" aria-hidden="true" />
          Calendar sync
        </CardTitle>
        <CardDescription>
          Booked sessions are added to your calendar with a Google Meet link. Sessions sync every 5 minutes.
        </CardDescription>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
