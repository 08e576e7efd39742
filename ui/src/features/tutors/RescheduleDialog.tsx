import type { TutorSession } from '@shared/sessions/sessionApi.ts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
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
import { toast } from '../../components/ui/use-toast.ts';
import { timezoneLabel } from '../../lib/timezones.ts';
import { serverMessage, tutorKeys, tutorsApi } from './api.ts';
import { PendingButton } from './parts.tsx';
import { RescheduleSlotGrid } from './RescheduleSlotGrid.tsx';
import { dateInRange, localDateTime, RESCHEDULE_DAYS_AHEAD, rescheduleRange, sessionDateTime } from './sessionFormat.ts';
import { useSessionsRefresh } from './useSessionsRefresh.ts';

/** "HTTP 409: {body}" of a failed call (spec part 2 §8: "Reschedule failed: HTTP {status}: {body}"). */
function httpFailure(error: unknown): string {
  if (!(error instanceof Error)) return 'Failed to reschedule session';
  const match = /^(\d{3}): ([\s\S]*)$/.exec(error.message);
  if (!match) return error.message || 'Failed to reschedule session';
  return `HTTP ${match[1]}: ${serverMessage(error, 'Failed to reschedule session')}`;
}

/**
 * Reschedule (spec part 2 §2, §5, §9): a date from today to 30 days ahead (past dates cannot be
 * chosen), the tutor's free start times that day as "h:mm a" in the user's zone (the session's own
 * hour does not block), twelve placeholders while they load; Confirm sends the local time and zone.
 */
export function RescheduleDialog({
  tutorId,
  session,
  zone,
  onClose,
  onCloseAutoFocus,
}: {
  tutorId: string;
  session: TutorSession;
  zone: string;
  onClose: () => void;
  /** Where focus goes when the dialog closes (it has no trigger of its own). */
  onCloseAutoFocus?: (event: Event) => void;
}) {
  const dateId = useId();
  const hintId = useId();
  const range = useMemo(() => rescheduleRange(zone), [zone]);
  const [date, setDate] = useState('');
  const [slot, setSlot] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = useSessionsRefresh(tutorId);
  const validDate = dateInRange(date, range);

  const slots = useQuery({
    queryKey: tutorKeys.rescheduleSlots(tutorId, date, session.id, zone),
    queryFn: () => tutorsApi.rescheduleSlots(tutorId, date, session.id, zone),
    enabled: validDate,
    staleTime: 0,
  });
  const move = useMutation({
    mutationFn: (start: string) => tutorsApi.reschedule(session.id, localDateTime(start, zone), start, zone),
    onSuccess: async () => {
      await refresh();
      toast({ title: 'Session Rescheduled', description: 'The session was moved and your calendar was updated.', variant: 'success' });
      onClose();
    },
    onError: (e) => {
      const message = `Reschedule failed: ${httpFailure(e)}`;
      setProblem(message);
      toast({ title: 'Reschedule failed', description: serverMessage(e, 'Failed to reschedule session'), variant: 'destructive' });
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
      <DialogContent className="sm:max-w-xl" onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>Reschedule Session</DialogTitle>
          <DialogDescription>
            {session.subject.name} with {session.student.firstName} {session.student.lastName}, now {sessionDateTime(session.date, zone)}.
            Times are in {timezoneLabel(zone)} time.
          </DialogDescription>
        </DialogHeader>
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
        <div role="alert" className="text-sm text-destructive-text empty:hidden">
          {problem}
        </div>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" disabled={move.isPending}>
              Cancel
            </Button>
          </DialogClose>
          <PendingButton
            pending={move.isPending}
            disabled={!validDate || !slot}
            onClick={onConfirm}
            label="Confirm Reschedule"
            pendingLabel="Rescheduling..."
          />
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
