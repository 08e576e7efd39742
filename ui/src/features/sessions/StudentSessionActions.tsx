import { useMutation } from '@tanstack/react-query';
import { CalendarClock, XCircle } from 'lucide-react';
import { useId, useState } from 'react';
import { errorMessage } from '../../app/api.ts';
import { PendingButton } from '../../components/parts.tsx';
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
import { Label } from '../../components/ui/label.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { sessionDateTime } from '../../lib/sessionFormat.ts';
import { timezoneLabel } from '../../lib/timezones.ts';
import { cn } from '../../lib/utils.ts';
import { sessionsApi, useSessionChangeRefresh } from './api.ts';
import { CANCELLATION_NOTICE_HOURS, cancellationDeadline, creditComesBack } from './bookingFormat.ts';
import { RescheduleDialog } from './RescheduleDialog.tsx';

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
        <RescheduleDialog
          session={session}
          summary={`${session.subjectName} with ${session.tutorName}`}
          party={{ kind: 'family', onCancelInstead: () => setOpen('cancel') }}
          zone={zone}
          onClose={() => setOpen(null)}
        />
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
