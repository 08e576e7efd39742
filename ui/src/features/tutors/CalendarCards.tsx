import { addBusyEventBody, type CalendarStatusAnswer } from '@shared/tutors/tutorApi.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarCheck2, CalendarX2, Info, KeyRound, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Temporal } from 'temporal-polyfill';
import type { User } from '../../app/auth/types.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { timezoneLabel } from '../../lib/timezones.ts';
import { FieldMessage } from '../accounts/FieldMessage.tsx';
import { serverMessage, tutorKeys, tutorsApi } from './api.ts';
import { Loading, PendingButton } from './parts.tsx';

/** Spec part 2 §9: calendar status polls every 30 seconds. */
export const CALENDAR_POLL_MS = 30_000;

/** The full navigation that asks Google again for offline calendar access. */
export const REAUTHORISE_URL = '/api/auth/google?userType=tutor&prompt=consent&access_type=offline';

export function useCalendarStatus(tutorId: string | undefined) {
  return useQuery({
    queryKey: tutorKeys.calendarStatus(tutorId ?? ''),
    queryFn: () => tutorsApi.calendarStatus(tutorId ?? ''),
    enabled: tutorId !== undefined,
    refetchInterval: CALENDAR_POLL_MS,
  });
}

/** The banner asking the tutor to sign in with Google again when the token is expired, missing or revoked. */
export function ReauthoriseBanner({ status }: { status: CalendarStatusAnswer }) {
  if (!status.needsReauthorisation) return null;
  return (
    <Alert variant="destructive">
      <KeyRound aria-hidden="true" />
      <AlertTitle>Reconnect your Google Calendar</AlertTitle>
      <AlertDescription>
        <p>
          Topmark can no longer reach your calendar: your Google authorisation expired or was removed. Students cannot book you until you
          reconnect.
        </p>
        <Button className="mt-3" size="sm" onClick={() => window.location.assign(REAUTHORISE_URL)}>
          Re-authorise Google
        </Button>
      </AlertDescription>
    </Alert>
  );
}

/** How to share a Google calendar with Topmark (the service account, when configured). */
function ShareInstructions({ status }: { status: CalendarStatusAnswer }) {
  return (
    <ol className="mt-2 list-decimal space-y-1 pl-5">
      <li>Open Google Calendar on a computer and find your calendar under "My calendars".</li>
      <li>Choose "Settings and sharing", then "Share with specific people or groups".</li>
      {status.serviceAccountEmail ? (
        <li>
          Add <strong className="break-all">{status.serviceAccountEmail}</strong> with the permission "Make changes to events".
        </li>
      ) : (
        <li>Or sign in with Google again and allow calendar access when asked.</li>
      )}
    </ol>
  );
}

/** Connected, or not connected with the share instructions; the sandbox says the built-in calendar is in use. */
export function CalendarStatusBanner({ status }: { status: CalendarStatusAnswer }) {
  if (status.isConnected) {
    return (
      <Alert variant="success" data-testid="calendar-status">
        <CalendarCheck2 aria-hidden="true" />
        <AlertTitle>Calendar connected</AlertTitle>
        <AlertDescription>
          {status.provider === 'sandbox' ? (
            <p>
              Topmark's built-in calendar is in use (Google Calendar is not configured on this server). Your hours and bookings are kept
              there.
            </p>
          ) : (
            <p>Topmark can read and write {status.email ? <strong className="break-all">{status.email}</strong> : 'your calendar'}.</p>
          )}
          <p className="mt-1">
            {status.hasAvailability ? 'Your Topmark Hours are set.' : 'Add your weekly hours so students can book you.'}
          </p>
        </AlertDescription>
      </Alert>
    );
  }
  return (
    <Alert data-testid="calendar-status">
      <CalendarX2 aria-hidden="true" />
      <AlertTitle>Calendar not connected</AlertTitle>
      <AlertDescription>
        <p>Students can only book times Topmark can see in your calendar. Share your Google Calendar with Topmark:</p>
        <ShareInstructions status={status} />
      </AlertDescription>
    </Alert>
  );
}

/** The calendar status of a tutor with loading and error states. */
export function CalendarStatusSection({ tutorId }: { tutorId: string }) {
  const status = useCalendarStatus(tutorId);
  if (status.isPending) return <Loading label="Checking your calendar..." />;
  if (status.isError) {
    return (
      <LoadError
        title="Could not check your calendar"
        message={serverMessage(status.error, 'Please try again.')}
        onRetry={() => void status.refetch()}
        retrying={status.isRefetching}
      />
    );
  }
  return (
    <div className="grid gap-3">
      <ReauthoriseBanner status={status.data} />
      <CalendarStatusBanner status={status.data} />
    </div>
  );
}

/** What Topmark Hours are and how students see them (spec part 2 §1, §2). */
export function AvailabilityInstructions() {
  return (
    <Alert>
      <Info aria-hidden="true" />
      <AlertTitle>How availability works</AlertTitle>
      <AlertDescription>
        <ul className="mt-1 list-disc space-y-1 pl-5">
          <li>
            Your bookable time is the recurring events named <strong>"Topmark Hours"</strong> in your calendar. Saving your weekly hours
            here creates them; you can also create them in your calendar yourself.
          </li>
          <li>Students see your Topmark Hours as 1-hour slots.</li>
          <li>Any other event in your calendar blocks that time, so a busy afternoon is never offered.</li>
        </ul>
      </AlertDescription>
    </Alert>
  );
}

const timeFormat = (zone: string) =>
  new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });

/**
 * Sandbox only: the tutor's other (busy) events, so a demo shows blocking. The events Topmark wrote
 * for the tutor's sessions are not busy time to remove here (the Sessions list owns them).
 */
export function BusyTimeCard({ user, tutorId }: { user: User; tutorId: string }) {
  const queryClient = useQueryClient();
  const id = useId();
  const zone = user.timezone;
  const events = useQuery({ queryKey: tutorKeys.busyEvents, queryFn: tutorsApi.busyEvents });
  const sessions = useQuery({ queryKey: tutorKeys.sessions(tutorId), queryFn: () => tutorsApi.sessions(tutorId) });
  const sessionEvents = new Set((sessions.data ?? []).flatMap((s) => (s.googleCalendarEventId ? [s.googleCalendarEventId] : [])));
  const shown = (events.data ?? []).filter((e) => !sessionEvents.has(e.id));
  const tomorrow = Temporal.Now.plainDateISO(zone).add({ days: 1 }).toString();
  const [form, setForm] = useState({ date: tomorrow, start: '12:00', end: '13:00', summary: 'Busy' });
  const [problem, setProblem] = useState<string | null>(null);

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: tutorKeys.busyEvents });
    await queryClient.invalidateQueries({ queryKey: ['/api/tutor'] });
  };
  const add = useMutation({
    mutationFn: (body: { summary: string; start: string; end: string }) => tutorsApi.addBusyEvent(body),
    onSuccess: async () => {
      await refresh();
      toast({ title: 'Busy time added', variant: 'success' });
    },
    onError: (e) => toast({ title: 'Failed to add busy time', description: serverMessage(e, 'Please try again.'), variant: 'destructive' }),
  });
  const remove = useMutation({
    mutationFn: (eventId: string) => tutorsApi.removeBusyEvent(eventId),
    onSuccess: refresh,
    onError: (e) =>
      toast({ title: 'Failed to remove busy time', description: serverMessage(e, 'Please try again.'), variant: 'destructive' }),
  });

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    let start: Temporal.ZonedDateTime;
    let end: Temporal.ZonedDateTime;
    try {
      const at = (time: string) => Temporal.PlainDateTime.from(`${form.date}T${time}`).toZonedDateTime(zone);
      start = at(form.start);
      end = at(form.end);
    } catch {
      setProblem('Please enter a date, a start and an end time');
      return;
    }
    if (Temporal.ZonedDateTime.compare(end, start) <= 0) {
      setProblem('The end time must be after the start time');
      return;
    }
    const iso = (t: Temporal.ZonedDateTime) => t.toString({ timeZoneName: 'never', smallestUnit: 'second' });
    const parsed = addBusyEventBody.safeParse({ summary: form.summary, start: iso(start), end: iso(end) });
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'Please check this event');
      return;
    }
    setProblem(null);
    add.mutate(parsed.data);
  };
  const set = (key: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setProblem(null);
    setForm((f) => ({ ...f, [key]: e.target.value }));
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Busy time</CardTitle>
        <CardDescription>
          The built-in calendar's other events. Anything here blocks your Topmark Hours, as any event in your Google Calendar would. Times
          are in {timezoneLabel(zone)} time.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <form noValidate onSubmit={onSubmit} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5 lg:items-end">
          <div className="grid gap-1 lg:col-span-2">
            <label htmlFor={`${id}-title`} className="text-xs font-medium text-slate-600">
              Title
            </label>
            <Input id={`${id}-title`} value={form.summary} onChange={set('summary')} maxLength={200} />
          </div>
          <div className="grid gap-1">
            <label htmlFor={`${id}-date`} className="text-xs font-medium text-slate-600">
              Date
            </label>
            <Input id={`${id}-date`} type="date" value={form.date} onChange={set('date')} />
          </div>
          <div className="grid gap-1">
            <label htmlFor={`${id}-start`} className="text-xs font-medium text-slate-600">
              Start
            </label>
            <Input id={`${id}-start`} type="time" value={form.start} onChange={set('start')} />
          </div>
          <div className="grid gap-1">
            <label htmlFor={`${id}-end`} className="text-xs font-medium text-slate-600">
              End
            </label>
            <Input id={`${id}-end`} type="time" value={form.end} onChange={set('end')} />
          </div>
          <div className="sm:col-span-2 lg:col-span-5">
            <PendingButton type="submit" pending={add.isPending} label="Add busy time" pendingLabel="Adding..." />
          </div>
          <div role="alert" className="sm:col-span-2 lg:col-span-5">
            {problem ? <FieldMessage id={`${id}-error`} error={{ message: problem }} /> : null}
          </div>
        </form>
        {events.isPending ? (
          <Loading label="Loading busy time..." />
        ) : events.isError ? (
          <LoadError title="Could not load your busy time" onRetry={() => void events.refetch()} retrying={events.isRefetching} />
        ) : shown.length === 0 ? (
          <p className="text-sm text-slate-600">No busy time in the next 30 days.</p>
        ) : (
          <ul className="min-w-0 divide-y divide-border rounded-md border border-border" aria-label="Busy time in the next 30 days">
            {shown.map((e) => (
              <li key={e.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
                <div className="min-w-0">
                  <p className="truncate font-medium text-slate-900">{e.summary}</p>
                  <p className="text-slate-600">
                    {timeFormat(zone).format(new Date(e.start))} – {timeFormat(zone).format(new Date(e.end))}
                  </p>
                </div>
                <PendingButton
                  variant="ghost"
                  size="sm"
                  pending={remove.isPending && remove.variables === e.id}
                  onClick={() => remove.mutate(e.id)}
                  aria-label={`Remove ${e.summary}`}
                  label={<Trash2 aria-hidden="true" />}
                  pendingLabel="Removing..."
                />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
