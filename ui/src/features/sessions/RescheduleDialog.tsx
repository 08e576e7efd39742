import { useMutation, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { errorMessage, serverMessage } from '../../app/api.ts';
import { PendingButton } from '../../components/parts.tsx';
import { Button } from '../../components/ui/button.tsx';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { dateInRange, localDateTime, RESCHEDULE_DAYS_AHEAD, rescheduleRange, sessionDateTime } from '../../lib/sessionFormat.ts';
import { timezoneLabel } from '../../lib/timezones.ts';
import { cn } from '../../lib/utils.ts';
import { sessionKeys, sessionsApi, useSessionChangeRefresh } from './api.ts';
import { CANCELLATION_NOTICE_HOURS, cancellationDeadline, familyMoveWindow } from './bookingFormat.ts';
import { RescheduleSlotGrid } from './RescheduleSlotGrid.tsx';
import { SessionDayField } from './SessionDayField.tsx';

/** Who moves the session: what differs between the tutor's and the family's dialog. */
export type RescheduleParty =
  /** The tutor moves their own session (spec part 2 §2): no notice rule; `onMoved` reads their lists again. */
  | { kind: 'tutor'; onMoved: () => Promise<unknown> }
  /** The family (spec part 2 §6): the 12-hour rule comes first; inside it, cancelling is offered instead. */
  | { kind: 'family'; onCancelInstead?: (() => void) | undefined };

/** The session being moved: its id, its tutor (whose free hours are offered) and its ISO start. */
export interface MovableSession {
  id: string;
  tutorId: string;
  date: string;
}

/** "HTTP 409: {body}" of a failed call (spec part 2 §8: "Reschedule failed: HTTP {status}: {body}"). */
function httpFailure(error: unknown): string {
  if (!(error instanceof Error)) return 'Failed to reschedule session';
  const match = /^(\d{3}): ([\s\S]*)$/.exec(error.message);
  if (!match) return error.message || 'Failed to reschedule session';
  return `HTTP ${match[1]}: ${serverMessage(error, 'Failed to reschedule session')}`;
}

/**
 * Reschedule (spec part 2 §2, §5, §6, §9), the one dialog for the tutor and the family: a date
 * from today to 30 days ahead (past dates cannot be chosen), the tutor's free start times that
 * day as "h:mm a" in the viewer's zone (the session's own hour does not block), twelve
 * placeholders while they load, Cancel / Confirm Reschedule; Confirm sends the local time and
 * zone. For the family the 12-hour rule comes first: inside the window they are offered
 * cancelling instead (the server refuses their move then, and its message shows here if the
 * window closed while the dialog was open).
 */
export function RescheduleDialog({
  session,
  summary,
  party,
  zone,
  onClose,
  onCloseAutoFocus,
}: {
  session: MovableSession;
  /** "{subject} with {the other party}", before "now {start}". */
  summary: string;
  party: RescheduleParty;
  zone: string;
  onClose: () => void;
  /** Where focus goes when the dialog closes (it has no trigger of its own). */
  onCloseAutoFocus?: ((event: Event) => void) | undefined;
}) {
  const range = useMemo(() => rescheduleRange(zone), [zone]);
  const [date, setDate] = useState('');
  const [slot, setSlot] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const familyRefresh = useSessionChangeRefresh();
  const validDate = dateInRange(date, range);
  // The family's window, decided when the dialog opens; the server decides again when the move is sent.
  const [moveWindow, setMoveWindow] = useState(() => (party.kind === 'family' ? familyMoveWindow(session.date, Date.now()) : 'open'));
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
      await (party.kind === 'tutor' ? party.onMoved() : familyRefresh());
      toast({
        title: 'Session Rescheduled',
        description:
          party.kind === 'tutor'
            ? 'The session was moved and your calendar was updated.'
            : `Moved to ${sessionDateTime(moved.date, zone)}; the tutor’s calendar is updated.`,
        variant: 'success',
      });
      onClose();
    },
    onError: (e) => {
      if (party.kind === 'tutor') {
        setProblem(`Reschedule failed: ${httpFailure(e)}`);
        toast({ title: 'Reschedule failed', description: serverMessage(e, 'Failed to reschedule session'), variant: 'destructive' });
      } else {
        const message = errorMessage(e, 'Failed to reschedule session');
        setProblem(message);
        // The window may have closed while the dialog was open: the rule box says so now.
        setMoveWindow(familyMoveWindow(session.date, Date.now()));
        toast({ title: 'Reschedule failed', description: message, variant: 'destructive' });
        setSlot(null);
      }
      void slots.refetch();
    },
  });

  const onConfirm = () => {
    if (!validDate || !slot) {
      setProblem('Please choose a date and a time slot');
      return;
    }
    setProblem(null);
    move.mutate(slot);
  };

  return (
    <Dialog
      open
      onOpenChange={(next) => {
        if (!next && !move.isPending) onClose();
      }}
    >
      <DialogContent className="sm:max-w-xl" onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>Reschedule Session</DialogTitle>
          <DialogDescription>
            {summary}, now {sessionDateTime(session.date, zone)}. Times are in {timezoneLabel(zone)} time.
          </DialogDescription>
        </DialogHeader>
        {party.kind === 'family' ? <MoveRule start={session.date} zone={zone} moveWindow={moveWindow} /> : null}
        {movable ? (
          <>
            <SessionDayField
              label="New date"
              hint={<>From today to {RESCHEDULE_DAYS_AHEAD} days ahead; earlier and later days cannot be chosen.</>}
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
          {party.kind === 'family' && moveWindow === 'late' && party.onCancelInstead ? (
            <Button variant="outline" className="text-destructive-text" onClick={party.onCancelInstead}>
              Cancel Session Instead
            </Button>
          ) : null}
          <PendingButton
            pending={move.isPending}
            disabled={!movable || !validDate || !slot}
            onClick={onConfirm}
            label="Confirm Reschedule"
            pendingLabel="Rescheduling..."
          />
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** The 12-hour rule for moves (spec part 1 §9), said before the family chooses a time. */
function MoveRule({ start, zone, moveWindow }: { start: string; zone: string; moveWindow: 'open' | 'late' | 'started' }) {
  return (
    <p
      className={cn('rounded-md p-3 text-sm', moveWindow === 'open' ? 'bg-slate-50 text-slate-700' : 'bg-amber-50 text-amber-900')}
      data-testid="reschedule-rule"
    >
      {moveWindow === 'open' ? (
        <>
          Moving or cancelling needs more than {CANCELLATION_NOTICE_HOURS} hours’ notice. You can move this session until{' '}
          <strong>{sessionDateTime(cancellationDeadline(start), zone)}</strong>; after that it can no longer be rescheduled, and cancelling
          uses the session’s credit.
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
