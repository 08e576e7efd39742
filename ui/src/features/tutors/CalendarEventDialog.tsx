import { zodResolver } from '@hookform/resolvers/zod';
import { isTopmarkHours, TOPMARK_HOURS } from '@shared/calendar/availability.ts';
import { WEEKDAYS, type Weekday, weekdayOf } from '@shared/calendar/recurrence.ts';
import {
  type CalendarEventFormValues,
  calendarEventFormSchema,
  eventFormValues,
  formCanShow,
  newEventFormValues,
  type ToBodyOptions,
  toCalendarEventBody,
} from '@shared/tutors/calendarEventForm.ts';
import type { CalendarEventAnswer } from '@shared/tutors/calendarEventsApi.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarClock, Lock, Trash2 } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Temporal } from 'temporal-polyfill';
import { serverMessage } from '../../app/api.ts';
import { checkboxClasses, FieldMessage, fieldA11y, selectClasses } from '../../components/FieldMessage.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading, PendingButton } from '../../components/parts.tsx';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '../../components/ui/alert-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { timezoneLabel } from '../../lib/timezones.ts';
import { tutorKeys, tutorsApi } from './api.ts';
import { eventTimeText } from './calendarWeekFormat.ts';

/** What the dialog shows: a new event (on a day, maybe at an hour), or an event of the week view. */
export type EventDialogState = { kind: 'new'; date: string; startTime?: string } | { kind: 'edit'; event: CalendarEventAnswer };

const DAY_LABELS: Record<Weekday, string> = {
  MO: 'Monday',
  TU: 'Tuesday',
  WE: 'Wednesday',
  TH: 'Thursday',
  FR: 'Friday',
  SA: 'Saturday',
  SU: 'Sunday',
};

/** After any change: the week view, the calendar status (hasAvailability) and the weekly hours (read from the calendar). */
function useCalendarChanged() {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: tutorKeys.calendarEvents }),
      queryClient.invalidateQueries({ queryKey: ['/api/tutor'] }),
    ]);
  };
}

/**
 * Adding, changing and deleting the tutor's own events (sandbox calendar): a form in the tutor's
 * zone; for one occurrence of a series, the choice of that occurrence or the whole series; sessions
 * Topmark wrote are shown, read-only.
 */
export function CalendarEventDialog({ state, zone, onClose }: { state: EventDialogState | null; zone: string; onClose: () => void }) {
  const event = state?.kind === 'edit' ? state.event : null;
  const title = state?.kind === 'new' ? 'Add an event' : event?.readOnly ? 'Booked session' : 'Edit event';
  return (
    <Dialog open={state !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>
            Times are in {timezoneLabel(zone)} time ({zone}).
          </DialogDescription>
        </DialogHeader>
        {state?.kind === 'new' ? (
          <EventForm initial={newEventFormValues(state.date, state.startTime)} zone={zone} target={null} onDone={onClose} />
        ) : event ? (
          <ExistingEvent event={event} zone={zone} onDone={onClose} />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function ExistingEvent({ event, zone, onDone }: { event: CalendarEventAnswer; zone: string; onDone: () => void }) {
  const [scope, setScope] = useState<'occurrence' | 'series'>('occurrence');
  const id = useId();
  if (event.readOnly) return <SessionDetails event={event} zone={zone} onDone={onDone} />;
  const seriesId = event.recurringEventId;
  const deletes = <DeleteButtons event={event} onDone={onDone} />;
  if (!formCanShow(event, zone)) {
    return (
      <div className="grid gap-4">
        <EventSummary event={event} zone={zone} />
        <p className="text-sm text-slate-600">
          This event spans more than a day: change it through the calendar events API, or delete it here.
        </p>
        <div className="flex flex-wrap justify-between gap-2">{deletes}</div>
      </div>
    );
  }
  return (
    <div className="grid gap-4">
      {event.fromWeeklyHours ? (
        <p className="rounded-md bg-success-muted px-3 py-2 text-sm text-success">
          These hours come from your weekly hours. Saving your weekly hours again replaces this series.
        </p>
      ) : null}
      {seriesId ? (
        <fieldset className="grid gap-2">
          <legend className="text-sm font-medium text-slate-900">This event repeats. Change</legend>
          <div className="flex flex-wrap gap-x-5 gap-y-2 text-sm">
            {(
              [
                ['occurrence', 'This occurrence only'],
                ['series', 'All occurrences in the series'],
              ] as const
            ).map(([value, label]) => (
              <label key={value} htmlFor={`${id}-${value}`} className="flex items-center gap-2">
                <input
                  id={`${id}-${value}`}
                  type="radio"
                  name={`${id}-scope`}
                  className="size-4 accent-brand-700"
                  checked={scope === value}
                  onChange={() => setScope(value)}
                />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      {seriesId && scope === 'series' ? (
        <SeriesForm seriesId={seriesId} zone={zone} onDone={onDone} deletes={deletes} />
      ) : (
        <EventForm
          key={event.id}
          initial={eventFormValues(event, zone)}
          zone={zone}
          target={{ id: event.id, options: seriesId ? { occurrence: true } : { previousRecurrence: event.recurrence } }}
          onDone={onDone}
          deletes={deletes}
        />
      )}
    </div>
  );
}

/** The whole series: its master is read for its recurrence (the week view lists occurrences). */
function SeriesForm({ seriesId, zone, onDone, deletes }: { seriesId: string; zone: string; onDone: () => void; deletes: React.ReactNode }) {
  const master = useQuery({ queryKey: tutorKeys.calendarEvent(seriesId), queryFn: () => tutorsApi.calendarEvent(seriesId) });
  if (master.isPending) return <Loading label="Loading the series..." />;
  if (master.isError) {
    return (
      <LoadError
        title="Could not load the series"
        message={serverMessage(master.error, 'Please try again.')}
        onRetry={() => void master.refetch()}
        retrying={master.isRefetching}
      />
    );
  }
  return (
    <EventForm
      key={`series-${master.dataUpdatedAt}`}
      initial={eventFormValues(master.data, zone)}
      zone={zone}
      target={{ id: seriesId, options: { previousRecurrence: master.data.recurrence } }}
      onDone={onDone}
      deletes={deletes}
      series
    />
  );
}

function EventSummary({ event, zone }: { event: CalendarEventAnswer; zone: string }) {
  return (
    <div className="flex items-start gap-3 rounded-md border border-border bg-muted p-3">
      <CalendarClock className="mt-0.5 size-5 text-brand-700" aria-hidden="true" />
      <div className="min-w-0">
        <p className="font-medium break-words text-slate-900">{event.summary || '(No title)'}</p>
        <p className="text-sm text-slate-600">{eventTimeText(event, zone)}</p>
        {event.description ? <p className="mt-1 text-sm whitespace-pre-line text-slate-600">{event.description}</p> : null}
      </div>
    </div>
  );
}

function SessionDetails({ event, zone, onDone }: { event: CalendarEventAnswer; zone: string; onDone: () => void }) {
  return (
    <div className="grid gap-4">
      <EventSummary event={event} zone={zone} />
      <p className="flex items-start gap-2 text-sm text-slate-600">
        <Lock className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        Topmark keeps this event in step with the session. To move or cancel it, use Reschedule or Cancel on the session in your sessions
        list.
      </p>
      <div className="flex justify-end">
        <Button variant="outline" onClick={onDone}>
          Close
        </Button>
      </div>
    </div>
  );
}

/** Delete the event, or for an occurrence of a series: this occurrence, or the whole series; each confirmed first. */
function DeleteButtons({ event, onDone }: { event: CalendarEventAnswer; onDone: () => void }) {
  const changed = useCalendarChanged();
  const [confirming, setConfirming] = useState<'one' | 'series' | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => tutorsApi.deleteCalendarEvent(id),
    onSuccess: async () => {
      await changed();
      toast({ title: confirming === 'series' ? 'Series deleted' : 'Event deleted', variant: 'success' });
      setConfirming(null);
      onDone();
    },
    onError: (e) =>
      toast({ title: 'Failed to delete the event', description: serverMessage(e, 'Please try again.'), variant: 'destructive' }),
  });
  const seriesId = event.recurringEventId ?? (event.recurrence?.length ? event.id : null);
  const occurrence = event.recurringEventId !== null;
  const question =
    confirming === 'series'
      ? {
          title: 'Delete the whole series?',
          text: `Every occurrence of “${event.summary}” is removed from your calendar, changed ones too.`,
          id: seriesId,
        }
      : occurrence
        ? { title: 'Delete this occurrence?', text: 'Only this occurrence is removed; the rest of the series stays.', id: event.id }
        : { title: 'Delete this event?', text: 'It is removed from your calendar.', id: event.id };
  return (
    <>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" size="sm" onClick={() => setConfirming('one')}>
          <Trash2 aria-hidden="true" />
          {occurrence ? 'Delete this occurrence' : seriesId ? 'Delete series' : 'Delete event'}
        </Button>
        {occurrence ? (
          <Button type="button" variant="outline" size="sm" onClick={() => setConfirming('series')}>
            <Trash2 aria-hidden="true" />
            Delete series
          </Button>
        ) : null}
      </div>
      <AlertDialog open={confirming !== null} onOpenChange={(open) => !open && setConfirming(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{question.title}</AlertDialogTitle>
            <AlertDialogDescription>{question.text}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel asChild>
              <Button variant="outline">Cancel</Button>
            </AlertDialogCancel>
            <AlertDialogAction asChild>
              <PendingButton
                variant="destructive"
                pending={remove.isPending}
                label="Delete"
                pendingLabel="Deleting..."
                onClick={(e) => {
                  e.preventDefault();
                  if (question.id) remove.mutate(question.id);
                }}
              />
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}

interface Target {
  id: string;
  options: ToBodyOptions;
}

function EventForm({
  initial,
  zone,
  target,
  onDone,
  deletes,
  series = false,
}: {
  initial: CalendarEventFormValues;
  zone: string;
  /** null: a new event. */
  target: Target | null;
  onDone: () => void;
  deletes?: React.ReactNode;
  series?: boolean;
}) {
  const id = useId();
  const changed = useCalendarChanged();
  // One key per form opened: a retried save makes one event.
  const [key] = useState(() => crypto.randomUUID());
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    watch,
    setValue,
    getValues,
    formState: { errors },
  } = useForm<CalendarEventFormValues>({ resolver: zodResolver(calendarEventFormSchema), defaultValues: initial });
  const occurrence = target?.options.occurrence === true;
  const save = useMutation({
    mutationFn: (values: CalendarEventFormValues) => {
      const body = toCalendarEventBody(values, zone, target?.options);
      return target ? tutorsApi.changeCalendarEvent(target.id, body) : tutorsApi.createCalendarEvent(body, key);
    },
    onSuccess: async () => {
      setServerError(null);
      await changed();
      toast({ title: target ? (series ? 'Series saved' : 'Event saved') : 'Event added', variant: 'success' });
      onDone();
    },
    onError: (e) => {
      const message = serverMessage(e, 'Please try again.');
      setServerError(message);
      toast({ title: 'Failed to save the event', description: message, variant: 'destructive' });
    },
  });
  const hours = isTopmarkHours(watch('summary'));
  const date = watch('date');
  // Until the tutor picks days, a weekly series repeats on the chosen date's weekday.
  useEffect(() => {
    if (getValues('repeat') === 'weekly') return;
    try {
      setValue('days', [weekdayOf(Temporal.PlainDate.from(date))]);
    } catch {
      // Not a date (yet): the form says so on save.
    }
  }, [date, getValues, setValue]);
  const allDay = watch('allDay');
  const repeat = watch('repeat');
  const ends = watch('ends');
  const f = (name: string) => `${id}-${name}`;

  return (
    <form noValidate className="grid gap-4" onSubmit={(e) => void handleSubmit((values) => !save.isPending && save.mutate(values))(e)}>
      <div className="grid gap-1.5">
        <Label htmlFor={f('summary')}>Title</Label>
        <div className="flex flex-wrap gap-2">
          <div className="min-w-0 flex-1 basis-48">
            <Input
              id={f('summary')}
              autoComplete="off"
              maxLength={200}
              {...fieldA11y(f('summary'), errors.summary, f('summary-hint'))}
              {...register('summary')}
            />
          </div>
          <Button type="button" variant="secondary" onClick={() => setValue('summary', TOPMARK_HOURS, { shouldValidate: true })}>
            Topmark Hours
          </Button>
        </div>
        <p id={f('summary-hint')} className="text-xs text-slate-500">
          Events titled “Topmark Hours” are the times students can book you; any other event blocks them unless it is marked free.
        </p>
        <FieldMessage id={`${f('summary')}-error`} error={errors.summary} />
      </div>

      <div className="grid gap-3 sm:grid-cols-3">
        <div className="grid gap-1.5">
          <Label htmlFor={f('date')}>{repeat === 'weekly' && !occurrence ? 'Starts on' : 'Date'}</Label>
          <Input id={f('date')} type="date" {...fieldA11y(f('date'), errors.date)} {...register('date')} />
          <FieldMessage id={`${f('date')}-error`} error={errors.date} />
        </div>
        {allDay ? null : (
          <>
            <div className="grid gap-1.5">
              <Label htmlFor={f('start')}>Start</Label>
              <Input id={f('start')} type="time" step={900} {...fieldA11y(f('start'), errors.startTime)} {...register('startTime')} />
              <FieldMessage id={`${f('start')}-error`} error={errors.startTime} />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={f('end')}>End</Label>
              <Input id={f('end')} type="time" step={900} {...fieldA11y(f('end'), errors.endTime)} {...register('endTime')} />
              <FieldMessage id={`${f('end')}-error`} error={errors.endTime} />
            </div>
          </>
        )}
      </div>
      <div className="flex items-center gap-2">
        <input id={f('all-day')} type="checkbox" className={checkboxClasses} {...register('allDay')} />
        <Label htmlFor={f('all-day')}>All day</Label>
      </div>

      {occurrence ? null : (
        <div className="grid gap-3 rounded-md border border-border p-3">
          <div className="grid max-w-xs gap-1.5">
            <Label htmlFor={f('repeat')}>Repeat</Label>
            <select id={f('repeat')} className={selectClasses} {...register('repeat')}>
              <option value="none">Does not repeat</option>
              <option value="weekly">Weekly on chosen days</option>
              {initial.repeat === 'custom' ? <option value="custom">Its own rule (kept as it is)</option> : null}
            </select>
          </div>
          {repeat === 'weekly' ? (
            <>
              <fieldset className="grid gap-1.5" {...fieldA11y(f('days'), errors.days)}>
                <legend className="mb-1.5 text-sm font-medium">Repeat on</legend>
                <div className="flex flex-wrap gap-x-4 gap-y-2">
                  {WEEKDAYS.map((day) => (
                    <label key={day} htmlFor={f(`day-${day}`)} className="flex items-center gap-1.5 text-sm">
                      <input id={f(`day-${day}`)} type="checkbox" value={day} className={checkboxClasses} {...register('days')} />
                      {DAY_LABELS[day]}
                    </label>
                  ))}
                </div>
                <FieldMessage id={`${f('days')}-error`} error={errors.days} />
              </fieldset>
              <fieldset className="grid gap-2">
                <legend className="mb-1.5 text-sm font-medium">Ends</legend>
                <label htmlFor={f('ends-never')} className="flex items-center gap-2 text-sm">
                  <input id={f('ends-never')} type="radio" value="never" className="size-4 accent-brand-700" {...register('ends')} />
                  Never
                </label>
                <div className="flex flex-wrap items-center gap-2 text-sm">
                  <input id={f('ends-on')} type="radio" value="on" className="size-4 accent-brand-700" {...register('ends')} />
                  <label htmlFor={f('ends-on')}>On</label>
                  <div className="w-44">
                    <Input
                      type="date"
                      aria-label="Last day of the series"
                      disabled={ends !== 'on'}
                      {...fieldA11y(f('until'), errors.until)}
                      {...register('until')}
                    />
                  </div>
                </div>
                <FieldMessage id={`${f('until')}-error`} error={errors.until} />
                <div className="flex flex-wrap items-center gap-2 text-sm">
                  <input id={f('ends-after')} type="radio" value="after" className="size-4 accent-brand-700" {...register('ends')} />
                  <label htmlFor={f('ends-after')}>After</label>
                  <div className="w-24">
                    <Input
                      type="number"
                      inputMode="numeric"
                      min={1}
                      max={1000}
                      aria-label="Number of occurrences"
                      disabled={ends !== 'after'}
                      {...fieldA11y(f('count'), errors.count)}
                      {...register('count')}
                    />
                  </div>
                  <span aria-hidden="true">times</span>
                </div>
                <FieldMessage id={`${f('count')}-error`} error={errors.count} />
              </fieldset>
            </>
          ) : null}
        </div>
      )}

      {hours ? (
        <p className="rounded-md bg-success-muted px-3 py-2 text-sm text-success">
          Topmark Hours are bookable time: students see them as 1-hour slots.
        </p>
      ) : (
        <fieldset className="grid gap-2">
          <legend className="mb-1.5 text-sm font-medium">Show as</legend>
          <label htmlFor={f('busy')} className="flex items-center gap-2 text-sm">
            <input id={f('busy')} type="radio" value="busy" className="size-4 accent-brand-700" {...register('show')} />
            Busy — students cannot book you then
          </label>
          <label htmlFor={f('free')} className="flex items-center gap-2 text-sm">
            <input id={f('free')} type="radio" value="free" className="size-4 accent-brand-700" {...register('show')} />
            Free — a reminder that blocks nothing
          </label>
        </fieldset>
      )}

      <div className="grid gap-1.5">
        <Label htmlFor={f('description')}>Notes (optional)</Label>
        <Textarea id={f('description')} {...fieldA11y(f('description'), errors.description)} {...register('description')} />
        <FieldMessage id={`${f('description')}-error`} error={errors.description} />
      </div>

      <div role="alert">{serverError ? <FieldMessage id={f('server-error')} error={{ message: serverError }} /> : null}</div>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>{deletes}</div>
        <div className="flex justify-end gap-2">
          <Button type="button" variant="outline" onClick={onDone} disabled={save.isPending}>
            Cancel
          </Button>
          <PendingButton
            type="submit"
            pending={save.isPending}
            label={target ? (series ? 'Save series' : 'Save') : 'Add event'}
            pendingLabel="Saving..."
          />
        </div>
      </div>
    </form>
  );
}
