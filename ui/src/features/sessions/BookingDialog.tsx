import type { StudentSession } from '@shared/sessions/sessionApi.ts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { CalendarClock, CalendarOff, CalendarX, Clock, Star } from 'lucide-react';
import type * as React from 'react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { errorMessage } from '../../app/api.ts';
import { initials, Loading, PendingButton } from '../../components/parts.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { dateInRange, sessionDateTime, slotTime } from '../../lib/sessionFormat.ts';
import { timezoneLabel } from '../../lib/timezones.ts';
import { cn } from '../../lib/utils.ts';
import { sessionKeys, sessionsApi, useSessionChangeRefresh } from './api.ts';
import {
  BOOKING_DAYS_AHEAD,
  BOOKING_ZONE,
  bookingFailure,
  bookingRange,
  isCalendarNotConnected,
  isNoAvailabilitySet,
  longDate,
  slotLabelAt,
} from './bookingFormat.ts';
import { SessionDayField } from './SessionDayField.tsx';

export const MISSING_COURSE = 'Missing student course enrollment ID. Please try again from the dashboard.';
const BIO_FALLBACK = 'Experienced tutor ready to help you succeed.';

export interface BookingCourse {
  /** The student course the session's credit comes from (studentCourseId). */
  id: string;
  subjectName: string;
}

export interface BookingDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  tutorId: string;
  /** Shown until the tutor's profile loads (and if it cannot). */
  tutorName?: string;
  /** Null when the course could not be found (the booking then says so, in `missingCourseMessage`). */
  course: BookingCourse | null;
  missingCourseMessage?: string;
  /** `firstSession` (/time-slot-selection) leaves the success toast to its page and words failures its way. */
  variant?: 'dashboard' | 'firstSession';
  /** The viewer's zone: the chosen New York time is also shown in it when it differs. */
  viewerZone?: string;
  /** Runs after the booking, once the session lists were read again; the dialog then closes. */
  onBooked?: (session: StudentSession) => void | Promise<void>;
}

/**
 * The booking dialog (spec part 2 §2, §4, §5, §8, §9): step 1 "Confirm Tutor Selection", step 2
 * "Schedule Your Session" with a date from today to 30 days ahead, the tutor's free hours that day
 * as New York times (EST/EDT), optional notes, and "Book Session". Every opening starts again at
 * step 1 with nothing chosen (the content unmounts when closed).
 */
export function BookingDialog(props: BookingDialogProps) {
  const [busy, setBusy] = useState(false);
  return (
    <Dialog
      open={props.open}
      onOpenChange={(next) => {
        if (!next && busy) return;
        props.onOpenChange(next);
      }}
    >
      <DialogContent className="sm:max-w-2xl" data-testid="booking-dialog">
        <BookingSteps {...props} onBusy={setBusy} />
      </DialogContent>
    </Dialog>
  );
}

function BookingSteps({
  onOpenChange,
  tutorId,
  tutorName,
  course,
  variant = 'dashboard',
  viewerZone,
  missingCourseMessage = MISSING_COURSE,
  onBooked,
  onBusy,
}: BookingDialogProps & { onBusy: (busy: boolean) => void }) {
  const [step, setStep] = useState<1 | 2>(1);
  // Keyboard users keep their place when the step changes (the focused button goes away with its step).
  const selectRef = useRef<HTMLButtonElement>(null);
  const cameBack = useRef(false);
  useEffect(() => {
    if (step === 1 && cameBack.current) selectRef.current?.focus();
  }, [step]);
  const tutor = useQuery({ queryKey: ['/api/tutors', tutorId], queryFn: () => sessionsApi.tutor(tutorId) });
  const name = tutor.data ? `${tutor.data.user.firstName} ${tutor.data.user.lastName}`.trim() : (tutorName ?? 'Your tutor');

  return step === 1 ? (
    <>
      <DialogHeader>
        <DialogTitle>Confirm Tutor Selection</DialogTitle>
        <DialogDescription>Check that this is the tutor you want for {course?.subjectName ?? 'this course'}.</DialogDescription>
      </DialogHeader>
      {tutor.isPending ? (
        <Loading label="Loading tutor..." />
      ) : (
        <div className="flex min-w-0 gap-4 rounded-md border border-border p-4" data-testid="booking-tutor">
          <div
            aria-hidden="true"
            className="flex size-14 shrink-0 items-center justify-center rounded-full bg-brand-100 text-lg font-semibold text-brand-800"
          >
            {tutor.data ? initials(tutor.data.user.firstName, tutor.data.user.lastName) : initials(name, '')}
          </div>
          <div className="grid min-w-0 gap-2">
            <p className="text-lg font-semibold text-slate-900">{name}</p>
            {tutor.data ? (
              <>
                <p className="flex items-center gap-1 text-sm text-slate-700">
                  <Star className="size-4 fill-amber-400 text-amber-500" aria-hidden="true" />
                  {tutor.data.rating === null ? 'New' : tutor.data.rating.toFixed(1)}
                  <span className="text-slate-500">
                    ({tutor.data.reviewCount} {tutor.data.reviewCount === 1 ? 'review' : 'reviews'})
                  </span>
                </p>
                <p className="text-sm break-words text-slate-600">{tutor.data.bio?.trim() || BIO_FALLBACK}</p>
                {tutor.data.subjects.length > 0 ? (
                  <ul className="flex flex-wrap gap-1.5" aria-label="Subjects">
                    {tutor.data.subjects.map((s) => (
                      <li key={s.id}>
                        <Badge variant="secondary">{s.name}</Badge>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </>
            ) : (
              <p className="text-sm text-slate-600">The tutor’s profile could not be loaded; you can still book with them.</p>
            )}
          </div>
        </div>
      )}
      <DialogFooter>
        <Button variant="outline" onClick={() => onOpenChange(false)}>
          Choose Different Tutor
        </Button>
        <Button ref={selectRef} onClick={() => setStep(2)}>
          Select This Tutor
        </Button>
      </DialogFooter>
    </>
  ) : (
    <ScheduleStep
      tutorId={tutorId}
      tutorName={name}
      course={course}
      variant={variant}
      viewerZone={viewerZone}
      missingCourseMessage={missingCourseMessage}
      onBack={() => {
        cameBack.current = true;
        setStep(1);
      }}
      onBusy={onBusy}
      onDone={async (session) => {
        await onBooked?.(session);
        onOpenChange(false);
      }}
    />
  );
}

function ScheduleStep({
  tutorId,
  tutorName,
  course,
  variant,
  viewerZone,
  missingCourseMessage,
  onBack,
  onBusy,
  onDone,
}: {
  tutorId: string;
  tutorName: string;
  course: BookingCourse | null;
  variant: 'dashboard' | 'firstSession';
  viewerZone?: string;
  missingCourseMessage: string;
  onBack: () => void;
  onBusy: (busy: boolean) => void;
  onDone: (session: StudentSession) => Promise<void>;
}) {
  const timesId = useId();
  const notesId = useId();
  const range = useMemo(() => bookingRange(), []);
  const [date, setDate] = useState('');
  // The chosen slot's instant: on the fall-back night two slots share a New York time.
  const [start, setStart] = useState<string | null>(null);
  const [notes, setNotes] = useState('');
  const refresh = useSessionChangeRefresh();
  const validDate = dateInRange(date, range);

  // Spec part 2 §4: slots are fetched only once a date is chosen (and this step is showing).
  const slots = useQuery({
    queryKey: sessionKeys.slots(tutorId, date),
    queryFn: () =>
      sessionsApi.slots(tutorId, date).catch((error: unknown) => {
        console.warn('Failed to fetch available slots', error);
        throw error;
      }),
    enabled: validDate,
    staleTime: 0,
    retry: false,
  });

  const book = useMutation({
    mutationFn: (input: { courseId: string; start: string; subjectName: string }) =>
      sessionsApi.book({
        tutorId,
        studentCourseId: input.courseId,
        date: input.start,
        notes: notes.trim() || `${input.subjectName} tutoring session`,
      }),
    onMutate: () => onBusy(true),
    onSettled: () => onBusy(false),
    onSuccess: async (session) => {
      await refresh();
      if (variant === 'dashboard') {
        toast({
          title: 'Session Booked',
          description: `${session.subject.name} with ${tutorName}, ${sessionDateTime(session.date, viewerZone ?? BOOKING_ZONE)}.`,
          variant: 'success',
        });
      }
      await onDone(session);
    },
    onError: (e) => {
      const failure = bookingFailure(errorMessage(e, ''), variant);
      toast({ ...failure, variant: 'destructive' });
      // The hour may have gone meanwhile: show the day as it is now.
      setStart(null);
      void slots.refetch();
    },
  });

  const onBook = () => {
    if (!date || !start) {
      toast({ title: 'Missing Information', description: 'Please select a date and time slot', variant: 'destructive' });
      return;
    }
    if (!tutorId || !validDate) {
      toast({ title: 'Booking Failed', description: 'Missing required booking information', variant: 'destructive' });
      return;
    }
    if (!course) {
      toast({ title: 'Booking Failed', description: missingCourseMessage, variant: 'destructive' });
      return;
    }
    book.mutate({ courseId: course.id, start, subjectName: course.subjectName });
  };

  const chosenStart = date ? start : null;
  const showLocal = Boolean(viewerZone && viewerZone !== BOOKING_ZONE && chosenStart);
  const slotsProblem = slots.isError && variant === 'dashboard' ? errorMessage(slots.error, '') : null;

  let grid: React.ReactNode;
  if (!date) {
    grid = <GridNote icon={<CalendarClock aria-hidden="true" />}>Please select a date first</GridNote>;
  } else if (!validDate) {
    grid = (
      <GridNote icon={<CalendarX aria-hidden="true" />} tone="error">
        Choose a date from today to {BOOKING_DAYS_AHEAD} days ahead.
      </GridNote>
    );
  } else if (slots.isPending) {
    grid = (
      <p role="status" className="rounded-md border border-dashed border-border px-3 py-4 text-center text-sm text-slate-600">
        Loading available times...
      </p>
    );
  } else if (isNoAvailabilitySet(slotsProblem)) {
    grid = (
      <GridNote icon={<CalendarOff aria-hidden="true" />} title="No Availability Set">
        {tutorName} has not set their weekly hours yet, so there are no times to book. Please check again later.
      </GridNote>
    );
  } else if (isCalendarNotConnected(slotsProblem)) {
    grid = (
      <GridNote icon={<CalendarOff aria-hidden="true" />} title="Calendar Not Connected">
        {tutorName}’s calendar is not connected yet, so no times can be booked. Please try again later.
      </GridNote>
    );
  } else if (!slots.data || slots.data.length === 0) {
    // A failed fetch is logged and shows no slots (spec part 2 §8).
    grid = <GridNote icon={<CalendarX aria-hidden="true" />}>No available times for this date</GridNote>;
  } else {
    grid = (
      <fieldset>
        <legend className="sr-only">Available times</legend>
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
          {slots.data.map((slot) => {
            const chosen = start === slot.start;
            return (
              <Button
                key={slot.start}
                variant={chosen ? 'default' : 'outline'}
                aria-pressed={chosen}
                className={cn('w-full', chosen && 'ring-2 ring-brand-300')}
                onClick={() => setStart(slot.start)}
              >
                {slotLabelAt(slot.start)}
              </Button>
            );
          })}
        </div>
      </fieldset>
    );
  }

  const ready = Boolean(date && start);
  return (
    <>
      <DialogHeader>
        <DialogTitle>Schedule Your Session</DialogTitle>
        <DialogDescription>Pick a day and one of {tutorName}’s free hours. Sessions last 60 minutes.</DialogDescription>
      </DialogHeader>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-md bg-slate-50 p-3 text-sm" data-testid="booking-details">
        <dt className="text-slate-500">Tutor</dt>
        <dd className="min-w-0 font-medium break-words text-slate-900">{tutorName}</dd>
        <dt className="text-slate-500">Subject</dt>
        <dd className="min-w-0 font-medium break-words text-slate-900">{course?.subjectName ?? '—'}</dd>
        <dt className="text-slate-500">Duration</dt>
        <dd className="font-medium text-slate-900">60 minutes</dd>
      </dl>
      <SessionDayField
        label="Session date"
        hint={<>Choose a date within the next {BOOKING_DAYS_AHEAD} days</>}
        min={range.min}
        max={range.max}
        value={date}
        testId="booking-calendar"
        // The step's first control: keyboard users land on today when "Select This Tutor" goes away.
        autoFocus
        onChange={(day) => {
          setDate(day);
          setStart(null);
        }}
      />
      <section aria-labelledby={timesId} className="grid gap-2">
        <h3 id={timesId} className="flex flex-wrap items-baseline gap-x-2 text-sm font-medium text-slate-900">
          Available Times
          <span className="text-xs font-normal text-slate-500">New York time (EST/EDT)</span>
        </h3>
        {grid}
        {showLocal && chosenStart ? (
          <p className="flex items-center gap-1.5 text-xs text-slate-600" data-testid="booking-local-time">
            <Clock className="size-3.5" aria-hidden="true" />
            That is {slotTime(chosenStart, viewerZone as string)} on {longDate(localDay(chosenStart, viewerZone as string))} in your time
            zone ({timezoneLabel(viewerZone as string)}).
          </p>
        ) : null}
      </section>
      <div className="grid gap-2">
        <Label htmlFor={notesId}>Session Notes (Optional)</Label>
        <Textarea
          id={notesId}
          className="min-h-20"
          maxLength={2000}
          placeholder="Any specific topics or goals for this session?"
          value={notes}
          onChange={(e) => setNotes(e.target.value)}
        />
      </div>
      <DialogFooter>
        <Button variant="outline" onClick={onBack} disabled={book.isPending}>
          Back to Tutor
        </Button>
        <PendingButton
          pending={book.isPending}
          // Looks and reads as disabled until a date and time are chosen; pressing it then says what is missing.
          aria-disabled={!ready || undefined}
          className={cn(!ready && 'cursor-not-allowed opacity-50')}
          onClick={onBook}
          label="Book Session"
          pendingLabel="Booking..."
        />
      </DialogFooter>
    </>
  );
}

/** The yyyy-MM-dd of an instant in `zone`. */
function localDay(iso: string, zone: string): string {
  return new Date(iso).toLocaleDateString('en-CA', { timeZone: zone });
}

function GridNote({ icon, title, tone, children }: { icon: React.ReactNode; title?: string; tone?: 'error'; children: React.ReactNode }) {
  return (
    <div
      className={cn(
        'flex items-start gap-2 rounded-md border border-dashed border-border px-3 py-4 text-sm [&_svg]:mt-0.5 [&_svg]:size-4 [&_svg]:shrink-0',
        tone === 'error' ? 'text-destructive-text' : 'text-slate-600',
      )}
    >
      {icon}
      <div>
        {title ? <p className="font-medium text-slate-900">{title}</p> : null}
        <p>{children}</p>
      </div>
    </div>
  );
}
