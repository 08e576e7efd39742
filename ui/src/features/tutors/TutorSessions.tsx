import type { TutorSession } from '@shared/sessions/sessionApi.ts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { CalendarClock, CalendarDays, CheckCircle2, Clock, Mail, User as UserIcon, Video } from 'lucide-react';
import type * as React from 'react';
import { useId, useRef, useState } from 'react';
import { serverMessage } from '../../app/api.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { PendingButton, Skeleton } from '../../components/parts.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { hasStarted, SYNC_POLL_MS, sessionDateTime, splitSessions } from '../../lib/sessionFormat.ts';
import { timezoneLabel } from '../../lib/timezones.ts';
import { RescheduleDialog } from '../sessions/RescheduleDialog.tsx';
import { tutorKeys, tutorsApi } from './api.ts';
import { useNow } from './useNow.ts';
import { useSessionsRefresh } from './useSessionsRefresh.ts';

export const NO_CALENDAR_EVENT = 'No calendar event found. Please reschedule to create one.';
const NOTES_MAX = 2000;

const studentName = (s: TutorSession) => `${s.student.firstName} ${s.student.lastName}`.trim() || 'Student';
const statusLabel = (status: string) => status.charAt(0).toUpperCase() + status.slice(1);

/** The tutor's sessions (spec part 2 §2 "Tutor sessions"): upcoming cards, then the completed table. */
export function TutorSessions({ tutorId, zone }: { tutorId: string; zone: string }) {
  // Polled with the sync card, so a Meet link written by the calendar sync shows up without a reload.
  const sessions = useQuery({
    queryKey: tutorKeys.sessions(tutorId),
    queryFn: () => tutorsApi.sessions(tutorId),
    refetchInterval: SYNC_POLL_MS,
  });
  const sessionsHeading = useRef<HTMLHeadingElement | null>(null);
  const now = useNow();
  const [completing, setCompleting] = useState<TutorSession | null>(null);
  const [moving, setMoving] = useState<TutorSession | null>(null);
  const refreshSessions = useSessionsRefresh(tutorId);
  // The dialogs have no trigger of their own: focus goes back to the button that opened them.
  const opener = useRef<HTMLElement | null>(null);
  const remember = () => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  };
  const returnFocus = (event: Event) => {
    event.preventDefault();
    // A completed session's button is gone: the Sessions heading takes focus instead.
    if (opener.current?.isConnected) opener.current.focus();
    else sessionsHeading.current?.focus();
  };

  let content: React.ReactNode;
  if (sessions.isPending) {
    content = (
      <div role="status" aria-label="Loading your sessions" className="grid gap-3">
        <Skeleton className="h-28 w-full" />
        <Skeleton className="h-28 w-full" />
      </div>
    );
  } else if (sessions.isError) {
    content = (
      <LoadError
        title="Could not load your sessions"
        message={serverMessage(sessions.error, 'Please try again.')}
        onRetry={() => void sessions.refetch()}
        retrying={sessions.isRefetching}
      />
    );
  } else {
    const { upcoming, completed } = splitSessions(sessions.data);
    content = (
      <div className="grid gap-8">
        <section aria-labelledby="upcoming-sessions" className="grid gap-3">
          <h3 id="upcoming-sessions" className="text-base font-semibold text-slate-900">
            Upcoming Sessions ({upcoming.length})
          </h3>
          {upcoming.length === 0 ? (
            <EmptyState
              icon={CalendarDays}
              title="No upcoming sessions"
              text="When a student books one of your Topmark Hours, the session appears here with its Meet link."
            />
          ) : (
            <ul className="grid gap-3" aria-label="Upcoming sessions">
              {upcoming.map((s) => (
                <UpcomingSessionCard
                  key={s.id}
                  session={s}
                  zone={zone}
                  now={now}
                  tutorId={tutorId}
                  onComplete={() => {
                    remember();
                    setCompleting(s);
                  }}
                  onReschedule={() => {
                    remember();
                    setMoving(s);
                  }}
                />
              ))}
            </ul>
          )}
        </section>
        <section aria-labelledby="completed-sessions" className="grid gap-3">
          <h3 id="completed-sessions" className="text-base font-semibold text-slate-900">
            Completed Sessions ({completed.length})
          </h3>
          {completed.length === 0 ? (
            <EmptyState
              icon={CheckCircle2}
              title="No completed sessions yet"
              text="Sessions you mark as completed are listed here with your notes."
            />
          ) : (
            <CompletedTable sessions={completed} zone={zone} />
          )}
        </section>
      </div>
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2" ref={sessionsHeading} tabIndex={-1} className="flex items-center gap-2 focus:outline-none">
          <CalendarClock className="size-5 text-brand-700" aria-hidden="true" />
          Sessions
        </CardTitle>
        <CardDescription>Times are shown in {timezoneLabel(zone)} time.</CardDescription>
      </CardHeader>
      <CardContent>{content}</CardContent>
      <CompleteSessionDialog tutorId={tutorId} session={completing} onClose={() => setCompleting(null)} onCloseAutoFocus={returnFocus} />
      {moving ? (
        <RescheduleDialog
          session={moving}
          summary={`${moving.subject.name} with ${moving.student.firstName} ${moving.student.lastName}`}
          party={{ kind: 'tutor', onMoved: refreshSessions }}
          zone={zone}
          onClose={() => setMoving(null)}
          onCloseAutoFocus={returnFocus}
        />
      ) : null}
    </Card>
  );
}

function EmptyState({ icon: Icon, title, text }: { icon: React.ComponentType<{ className?: string }>; title: string; text: string }) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-md border border-dashed border-border px-4 py-8 text-center">
      <Icon className="size-8 text-slate-400" aria-hidden="true" />
      <p className="font-medium text-slate-900">{title}</p>
      <p className="max-w-md text-sm text-slate-600">{text}</p>
    </div>
  );
}

function UpcomingSessionCard({
  session,
  zone,
  now,
  tutorId,
  onComplete,
  onReschedule,
}: {
  session: TutorSession;
  zone: string;
  now: number;
  tutorId: string;
  onComplete: () => void;
  onReschedule: () => void;
}) {
  const hintId = useId();
  const refresh = useSessionsRefresh(tutorId);
  const started = hasStarted(session, now);
  const invite = useMutation({
    mutationFn: () => tutorsApi.sendInvite(session.id),
    onSuccess: async () => {
      await refresh();
      toast({ title: 'Invite Sent', description: 'Google Calendar invite with Meet link sent to the student/parent.', variant: 'success' });
    },
    onError: (e) =>
      toast({ title: 'Failed to Send Invite', description: serverMessage(e, 'Failed to send invite'), variant: 'destructive' }),
  });
  const name = studentName(session);
  const noEvent = !session.googleCalendarEventId;

  return (
    <li
      aria-label={`${session.subject.name} with ${name}`}
      data-testid="upcoming-session"
      className="grid gap-3 rounded-lg border border-border bg-background p-4 shadow-xs"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h4 className="min-w-0 font-semibold break-words text-slate-900">{session.subject.name}</h4>
        <Badge variant="secondary">{statusLabel(session.status)}</Badge>
        {started ? <Badge variant="success">In Progress</Badge> : null}
      </div>
      <dl className="grid gap-1.5 text-sm text-slate-700">
        <div className="flex items-center gap-2">
          <dt>
            <UserIcon className="size-4 text-slate-500" aria-hidden="true" />
            <span className="sr-only">Student</span>
          </dt>
          <dd>{name}</dd>
        </div>
        <div className="flex items-start gap-2">
          <dt>
            <Clock className="mt-0.5 size-4 text-slate-500" aria-hidden="true" />
            <span className="sr-only">When</span>
          </dt>
          <dd data-testid="session-time">
            {sessionDateTime(session.date, zone)} ({session.duration} minutes)
          </dd>
        </div>
        {session.notes ? (
          <div className="flex items-start gap-2">
            <dt className="sr-only">Notes</dt>
            <dd className="break-words text-slate-600">{session.notes}</dd>
          </div>
        ) : null}
      </dl>
      {session.meetingLink ? (
        <a
          href={session.meetingLink}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex w-fit items-center gap-2 text-sm font-medium text-brand-700 underline-offset-4 hover:underline"
        >
          <Video className="size-4" aria-hidden="true" />
          Join Google Meet
          <span className="sr-only">(opens in a new tab)</span>
        </a>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={onReschedule}>
          <CalendarDays aria-hidden="true" />
          Reschedule
        </Button>
        {session.meetingLink ? null : (
          <PendingButton
            variant="outline"
            size="sm"
            pending={invite.isPending}
            disabled={noEvent}
            aria-describedby={noEvent ? hintId : undefined}
            onClick={() => invite.mutate()}
            label={
              <>
                <Mail aria-hidden="true" />
                Send Invite
              </>
            }
            pendingLabel="Sending..."
          />
        )}
        <Button size="sm" disabled={!started} onClick={onComplete}>
          <CheckCircle2 aria-hidden="true" />
          {started ? 'Complete' : 'Not Ready'}
        </Button>
      </div>
      {!session.meetingLink && noEvent ? (
        <p id={hintId} className="text-xs text-slate-600">
          {NO_CALENDAR_EVENT}
        </p>
      ) : null}
    </li>
  );
}

function CompletedTable({ sessions, zone }: { sessions: TutorSession[]; zone: string }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable).
    <section aria-label="Completed sessions table" tabIndex={0} className="overflow-x-auto rounded-md border border-border">
      <table className="w-full min-w-[40rem] text-left text-sm">
        <thead className="bg-slate-50 text-xs font-semibold text-slate-600 uppercase">
          <tr>
            <th scope="col" className="px-3 py-2">
              Date &amp; Time
            </th>
            <th scope="col" className="px-3 py-2">
              Student
            </th>
            <th scope="col" className="px-3 py-2">
              Subject
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Duration
            </th>
            <th scope="col" className="px-3 py-2">
              Status
            </th>
            <th scope="col" className="px-3 py-2">
              Notes
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {sessions.map((s) => (
            <tr key={s.id}>
              <td className="px-3 py-2 whitespace-nowrap">{sessionDateTime(s.date, zone)}</td>
              <td className="px-3 py-2">{studentName(s)}</td>
              <td className="px-3 py-2">{s.subject.name}</td>
              <td className="px-3 py-2 text-right tabular-nums whitespace-nowrap">{s.duration} min</td>
              <td className="px-3 py-2">
                <Badge variant="success">{statusLabel(s.status)}</Badge>
              </td>
              <td className="max-w-xs px-3 py-2 break-words text-slate-600">{s.notes || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Complete Session (spec part 2 §2, §4, §8): student, subject, optional notes; refused before the start. */
function CompleteSessionDialog({
  tutorId,
  session,
  onClose,
  onCloseAutoFocus,
}: {
  tutorId: string;
  session: TutorSession | null;
  onClose: () => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  const notesId = useId();
  const [notes, setNotes] = useState('');
  const refresh = useSessionsRefresh(tutorId);
  const complete = useMutation({
    mutationFn: (input: { id: string; notes: string }) => tutorsApi.complete(input.id, input.notes),
    onSuccess: async () => {
      await refresh();
      toast({
        title: 'Session Completed',
        description: 'The session was marked as completed and your notes were saved.',
        variant: 'success',
      });
      setNotes('');
      onClose();
    },
    onError: (e) => {
      if (e instanceof Error && e.message.startsWith('409:')) {
        toast({
          title: 'Cannot Complete Session',
          description: serverMessage(e, 'Session can only be marked as completed at or after the scheduled time.'),
          variant: 'destructive',
        });
      } else {
        toast({
          title: 'Failed to update session status',
          description: serverMessage(e, 'Failed to complete session'),
          variant: 'destructive',
        });
      }
    },
  });
  const open = session !== null;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !complete.isPending) {
          setNotes('');
          onClose();
        }
      }}
    >
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <form
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (session) complete.mutate({ id: session.id, notes: notes.trim() });
          }}
        >
          <DialogHeader>
            <DialogTitle>Complete Session</DialogTitle>
            <DialogDescription>
              Mark this session as completed. Your notes become the session report the student and parent see.
            </DialogDescription>
          </DialogHeader>
          {session ? (
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-md bg-slate-50 p-3 text-sm">
              <dt className="font-medium text-slate-600">Student</dt>
              <dd className="text-slate-900">{studentName(session)}</dd>
              <dt className="font-medium text-slate-600">Subject</dt>
              <dd className="text-slate-900">{session.subject.name}</dd>
            </dl>
          ) : null}
          <div className="grid gap-2">
            <Label htmlFor={notesId}>Session Notes (optional)</Label>
            <Textarea
              id={notesId}
              value={notes}
              maxLength={NOTES_MAX}
              onChange={(e) => setNotes(e.target.value)}
              placeholder="What you covered, progress, homework..."
            />
          </div>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline" disabled={complete.isPending}>
                Cancel
              </Button>
            </DialogClose>
            <PendingButton type="submit" pending={complete.isPending} label="Complete Session" pendingLabel="Completing..." />
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
