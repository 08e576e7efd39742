import { useMutation, useQuery } from '@tanstack/react-query';
import { CalendarClock, XCircle } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { errorMessage } from '../../app/api.ts';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '../../components/ui/alert-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { DateCalendar } from '../../components/ui/calendar.tsx';
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
import { timezoneLabel } from '../../lib/timezones.ts';
import { cn } from '../../lib/utils.ts';
import { PendingButton } from '../tutors/parts.tsx';
import { RescheduleSlotGrid } from '../tutors/RescheduleSlotGrid.tsx';
import { dateInRange, localDateTime, RESCHEDULE_DAYS_AHEAD, rescheduleRange, sessionDateTime } from '../tutors/sessionFormat.ts';
import { sessionKeys, sessionsApi, useSessionChangeRefresh } from './api.ts';
import { CANCELLATION_NOTICE_HOURS, cancellationDeadline, creditComesBack, familyMoveWindow } from './bookingFormat.ts';

/** What the actions need of a session (the dashboard's student-session shape, with the course's tutor). */
export interface ActionableSession {
  id: string;
  /** ISO start. */
  date: string;
  subjectName: string;
  tutorName: string;
  tutorId: string;
}

/**
 * Reschedule and Cancel on an upcoming session of the student area (spec part 2 §6: students may
 * reschedule or cancel from the dashboard). Cancelling first says, by the 12-hour rule, whether the
 * credit comes back or is used.
 */
export function StudentSessionActions({ session, zone }: { session: ActionableSession; zone: string }) {
  const [open, setOpen] = useState<'cancel' | 'reschedule' | null>(null);
  const what = `${session.subjectName} on ${sessionDateTime(session.date, zone)}`;
  return (
    <div className="mt-3 flex flex-wrap gap-2">
      <Button variant="outline" size="sm" onClick={() => setOpen('reschedule')} aria-label={`Reschedule ${what}`}>
        <CalendarClock aria-hidden="true" />
        Reschedule
      </Button>
      <Button variant="outline" size="sm" className="text-destructive-text" onClick={() => setOpen('cancel')} aria-label={`Cancel ${what}`}>
        <XCircle aria-hidden="true" />
        Cancel
      </Button>
      {open === 'reschedule' ? (
        <StudentRescheduleDialog session={session} zone={zone} onClose={() => setOpen(null)} onCancelInstead={() => setOpen('cancel')} />
      ) : null}
      <CancelSessionDialog session={session} zone={zone} open={open === 'cancel'} onClose={() => setOpen(null)} />
    </div>
  );
}

export function CancelSessionDialog({
  session,
  zone,
  open,
  onClose,
}: {
  session: ActionableSession;
  zone: string;
  open: boolean;
  onClose: () => void;
}) {
  const reasonId = useId();
  const [reason, setReason] = useState('');
  const refresh = useSessionChangeRefresh();
  // Decided when the dialog opens; the server decides again at the moment it cancels.
  const [now, setNow] = useState(() => Date.now());
  const refund = creditComesBack(session.date, now);
  const cancel = useMutation({
    mutationFn: () => sessionsApi.cancel(session.id, reason.trim()),
    onSuccess: async (answer) => {
      await refresh();
      toast({
        title: 'Session Cancelled',
        description:
          answer.credit === 'forfeited'
            ? 'The session was cancelled less than 12 hours before its start, so it counts as used.'
            : 'The session was cancelled and its credit is back in your course.',
        variant: 'success',
      });
      onClose();
    },
    onError: (e) =>
      toast({ title: 'Cancellation Failed', description: errorMessage(e, 'Failed to cancel session'), variant: 'destructive' }),
  });

  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        if (next) setNow(Date.now());
        else if (!cancel.isPending) onClose();
      }}
    >
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Cancel this session?</AlertDialogTitle>
          <AlertDialogDescription>
            {session.subjectName} with {session.tutorName}, {sessionDateTime(session.date, zone)} ({timezoneLabel(zone)} time).
          </AlertDialogDescription>
        </AlertDialogHeader>
        <p
          className={cn('rounded-md p-3 text-sm', refund ? 'bg-emerald-50 text-emerald-900' : 'bg-amber-50 text-amber-900')}
          data-testid="cancel-credit-rule"
        >
          {refund ? (
            <>
              You are cancelling more than {CANCELLATION_NOTICE_HOURS} hours before the start, so{' '}
              <strong>the session’s credit comes back</strong> to your course. (Cancellations after{' '}
              {sessionDateTime(cancellationDeadline(session.date), zone)} use the credit.)
            </>
          ) : (
            <>
              The session starts in less than {CANCELLATION_NOTICE_HOURS} hours, so{' '}
              <strong>cancelling now uses the session’s credit</strong>: it counts as a used session and does not come back.
            </>
          )}
        </p>
        <div className="grid gap-2">
          <Label htmlFor={reasonId}>Reason (optional)</Label>
          <Textarea
            id={reasonId}
            className="min-h-20"
            maxLength={2000}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            placeholder="Let your tutor know why"
          />
        </div>
        <AlertDialogFooter>
          <AlertDialogCancel asChild>
            <Button variant="outline" disabled={cancel.isPending}>
              Keep Session
            </Button>
          </AlertDialogCancel>
          <PendingButton
            variant="destructive"
            pending={cancel.isPending}
            onClick={() => cancel.mutate()}
            label="Cancel Session"
            pendingLabel="Cancelling..."
          />
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** The 12-hour rule for moves (spec part 1 §9), said before the family chooses a time. */
function MoveRule({ session, zone, moveWindow }: { session: ActionableSession; zone: string; moveWindow: 'open' | 'late' | 'started' }) {
  return (
    <p
      className={cn('rounded-md p-3 text-sm', moveWindow === 'open' ? 'bg-slate-50 text-slate-700' : 'bg-amber-50 text-amber-900')}
      data-testid="reschedule-rule"
    >
      {moveWindow === 'open' ? (
        <>
          Moving or cancelling needs more than {CANCELLATION_NOTICE_HOURS} hours’ notice. You can move this session until{' '}
          <strong>{sessionDateTime(cancellationDeadline(session.date), zone)}</strong>; after that it can no longer be rescheduled, and
          cancelling uses the session’s credit.
        </>
      ) : moveWindow === 'late' ? (
        <>
          This session starts in {CANCELLATION_NOTICE_HOURS} hours or less, so <strong>it can no longer be rescheduled</strong> (moving or
          cancelling needs more than {CANCELLATION_NOTICE_HOURS} hours’ notice). You can cancel it instead (the session then counts as used)
          and book a new time.
        </>
      ) : (
        <>This session has already started, so it can no longer be moved.</>
      )}
    </p>
  );
}

/**
 * Reschedule (as the tutor's dialog, spec part 2 §2, §5): a date from today to 30 days ahead, the
 * tutor's free start times that day as "h:mm a" in the viewer's zone (the session's own hour does
 * not block), twelve placeholders while they load, Cancel / Confirm Reschedule. The 12-hour rule
 * comes first: inside the window the family is offered cancelling instead (the server refuses
 * their move then, and its message shows here if the window closed while the dialog was open).
 */
export function StudentRescheduleDialog({
  session,
  zone,
  onClose,
  onCancelInstead,
}: {
  session: ActionableSession;
  zone: string;
  onClose: () => void;
  /** Opens the cancellation dialog (the move is refused inside the 12-hour window). */
  onCancelInstead?: () => void;
}) {
  const dateId = useId();
  const hintId = useId();
  const range = useMemo(() => rescheduleRange(zone), [zone]);
  const [date, setDate] = useState('');
  const [slot, setSlot] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = useSessionChangeRefresh();
  const validDate = dateInRange(date, range);
  // Decided when the dialog opens; the server decides again when the move is sent.
  const [moveWindow, setMoveWindow] = useState(() => familyMoveWindow(session.date, Date.now()));
  const movable = moveWindow === 'open';

  const slots = useQuery({
    queryKey: sessionKeys.rescheduleSlots(session.tutorId, date, session.id, zone),
    queryFn: () => sessionsApi.rescheduleSlots(session.tutorId, date, session.id, zone),
    enabled: validDate && movable,
    staleTime: 0,
  });
  const move = useMutation({
    mutationFn: (start: string) => sessionsApi.reschedule(session.id, localDateTime(start, zone), start, zone),
    onSuccess: async (moved) => {
      await refresh();
      toast({
        title: 'Session Rescheduled',
        description: `Moved to ${sessionDateTime(moved.date, zone)}; the tutor’s calendar is updated.`,
        variant: 'success',
      });
      onClose();
    },
    onError: (e) => {
      const message = errorMessage(e, 'Failed to reschedule session');
      setProblem(message);
      // The window may have closed while the dialog was open: the rule box says so now.
      setMoveWindow(familyMoveWindow(session.date, Date.now()));
      toast({ title: 'Reschedule failed', description: message, variant: 'destructive' });
      setSlot(null);
      void slots.refetch();
    },
  });

  const grid = (
    <RescheduleSlotGrid
      date={date}
      validDate={validDate}
      slots={slots}
      chosen={slot}
      onChoose={(start) => {
        setSlot(start);
        setProblem(null);
      }}
      zone={zone}
    />
  );

  return (
    <Dialog
      open
      onOpenChange={(next) => {
        if (!next && !move.isPending) onClose();
      }}
    >
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>Reschedule Session</DialogTitle>
          <DialogDescription>
            {session.subjectName} with {session.tutorName}, now {sessionDateTime(session.date, zone)}. Times are in {timezoneLabel(zone)}{' '}
            time.
          </DialogDescription>
        </DialogHeader>
        <MoveRule session={session} zone={zone} moveWindow={moveWindow} />
        {movable ? (
          <>
            <div className="grid gap-2">
              <p id={dateId} className="text-sm leading-none font-medium text-slate-900">
                New date
              </p>
              <DateCalendar
                labelledBy={dateId}
                describedBy={hintId}
                min={range.min}
                max={range.max}
                value={date}
                testId="reschedule-calendar"
                onChange={(day) => {
                  setDate(day);
                  setSlot(null);
                  setProblem(null);
                }}
              />
              <p id={hintId} className="text-xs text-slate-500">
                From today to {RESCHEDULE_DAYS_AHEAD} days ahead; earlier and later days cannot be chosen.
              </p>
            </div>
            {grid}
          </>
        ) : null}
        <div role="alert" className="text-sm text-destructive-text empty:hidden">
          {problem}
        </div>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" disabled={move.isPending}>
              Cancel
            </Button>
          </DialogClose>
          {moveWindow === 'late' && onCancelInstead ? (
            <Button variant="outline" className="text-destructive-text" onClick={onCancelInstead}>
              Cancel Session Instead
            </Button>
          ) : null}
          <PendingButton
            pending={move.isPending}
            disabled={!movable || !validDate || !slot}
            onClick={() => slot && move.mutate(slot)}
            label="Confirm Reschedule"
            pendingLabel="Rescheduling..."
          />
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
