import type { CalendarEventAnswer, EventKind } from '@shared/tutors/calendarEventsApi.ts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ChevronLeft, ChevronRight, Lock, Plus, Repeat } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Temporal } from 'temporal-polyfill';
import { serverMessage } from '../../app/api.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { Skeleton } from '../../components/parts.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { timezoneLabel } from '../../lib/timezones.ts';
import { cn } from '../../lib/utils.ts';
import { tutorKeys, tutorsApi } from './api.ts';
import { CALENDAR_POLL_MS } from './CalendarCards.tsx';
import { CalendarEventDialog, type EventDialogState } from './CalendarEventDialog.tsx';
import { dayLabel, eventLabel, hourText, minuteText, weekLabel } from './calendarWeekFormat.ts';
import { layoutWeek, mondayOf, type Piece, weekWindow } from './calendarWeekLayout.ts';

/** Height of one hour in the grid. */
const HOUR_PX = 44;
/** Where the grid opens scrolled to: early morning. */
const FIRST_SHOWN_HOUR = 7;

const KIND_CLASSES: Record<EventKind, string> = {
  hours: 'border-success bg-success-muted text-emerald-950 hover:bg-emerald-100',
  busy: 'border-slate-500 bg-slate-100 text-slate-900 hover:bg-slate-200',
  free: 'border-dashed border-slate-400 bg-white text-slate-700 hover:bg-slate-50',
  session: 'border-brand-700 bg-brand-100 text-brand-950 hover:bg-brand-200',
};

const LEGEND: { kind: EventKind; label: string }[] = [
  { kind: 'hours', label: 'Topmark Hours: bookable' },
  { kind: 'busy', label: 'Busy: blocks bookings' },
  { kind: 'free', label: 'Free: blocks nothing' },
  { kind: 'session', label: 'Booked session (read-only)' },
];

/**
 * The tutor's calendar (spec part 2 §1, §2: availability is the calendar's "Topmark Hours";
 * other events block them). With the built-in sandbox calendar, a week view — days as columns,
 * hours as rows, in the tutor's zone — where the tutor adds, changes and deletes events; with
 * Google, the events live in Google Calendar.
 */
export function TutorCalendarSection({ zone, provider }: { zone: string; provider: 'google' | 'sandbox' }) {
  if (provider === 'google') {
    return (
      <Card>
        <CardHeader>
          <CardTitle as="h2">Your calendar</CardTitle>
          <CardDescription>
            Your events live in your Google Calendar: add, change or cancel them there, your recurring “Topmark Hours” included. Topmark
            reads them from Google, so students only see times that are free there.
          </CardDescription>
        </CardHeader>
      </Card>
    );
  }
  return <CalendarWeekCard zone={zone} />;
}

function CalendarWeekCard({ zone }: { zone: string }) {
  const today = Temporal.Now.plainDateISO(zone);
  const [monday, setMonday] = useState(() => mondayOf(today));
  const [dialog, setDialog] = useState<EventDialogState | null>(null);
  const { from, to } = weekWindow(monday, zone);
  const week = useQuery({
    queryKey: tutorKeys.calendarWeek(from, to),
    queryFn: () => tutorsApi.calendarEvents(from, to),
    placeholderData: keepPreviousData,
    // Sessions students book appear without a reload.
    refetchInterval: CALENDAR_POLL_MS,
  });
  const headingId = useId();
  const label = weekLabel(monday);
  const firstDay = Temporal.PlainDate.compare(monday, today) > 0 ? monday : today;

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Your calendar</CardTitle>
        <CardDescription>
          Topmark's built-in calendar (Google Calendar is not configured on this server). Students can book the “Topmark Hours” in it; every
          other event blocks them unless it is marked free. Times are in {timezoneLabel(zone)} time.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-2">
            <h3 id={headingId} className="w-full text-base font-semibold text-slate-900 sm:order-last sm:ml-1 sm:w-auto" aria-live="polite">
              {label}
            </h3>
            <Button variant="outline" size="icon" aria-label="Previous week" onClick={() => setMonday((m) => m.subtract({ weeks: 1 }))}>
              <ChevronLeft aria-hidden="true" />
            </Button>
            <Button variant="outline" size="sm" onClick={() => setMonday(mondayOf(today))} disabled={monday.equals(mondayOf(today))}>
              This week
            </Button>
            <Button variant="outline" size="icon" aria-label="Next week" onClick={() => setMonday((m) => m.add({ weeks: 1 }))}>
              <ChevronRight aria-hidden="true" />
            </Button>
          </div>
          <Button onClick={() => setDialog({ kind: 'new', date: firstDay.toString() })}>
            <Plus aria-hidden="true" />
            Add event
          </Button>
        </div>
        <ul className="flex flex-wrap gap-x-4 gap-y-1.5 text-xs text-slate-600" aria-label="Legend">
          {LEGEND.map((l) => (
            <li key={l.kind} className="flex items-center gap-1.5">
              <span aria-hidden="true" className={cn('inline-block h-3 w-5 rounded-sm border border-l-4', KIND_CLASSES[l.kind])} />
              {l.label}
            </li>
          ))}
        </ul>
        {week.isPending ? (
          <div role="status" aria-label="Loading your calendar" className="grid gap-2">
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-80 w-full" />
          </div>
        ) : week.isError ? (
          <LoadError
            title="Could not load your calendar"
            message={serverMessage(week.error, 'Please try again.')}
            onRetry={() => void week.refetch()}
            retrying={week.isRefetching}
          />
        ) : (
          <WeekGrid
            events={week.data.items}
            monday={monday}
            today={today}
            zone={zone}
            labelledBy={headingId}
            stale={week.isPlaceholderData}
            onOpen={(event) => setDialog({ kind: 'edit', event })}
            onAdd={(date) => setDialog({ kind: 'new', date: date.toString() })}
          />
        )}
        {week.data && week.data.items.length === 0 && !week.isPlaceholderData ? (
          <p className="text-sm text-slate-600">
            Nothing in your calendar this week. Add “Topmark Hours” for the times students may book you.
          </p>
        ) : null}
      </CardContent>
      <CalendarEventDialog state={dialog} zone={zone} onClose={() => setDialog(null)} />
    </Card>
  );
}

const COLUMNS = 'grid grid-cols-[3.25rem_repeat(7,minmax(5.5rem,1fr))]';

function WeekGrid({
  events,
  monday,
  today,
  zone,
  labelledBy,
  stale,
  onOpen,
  onAdd,
}: {
  events: CalendarEventAnswer[];
  monday: Temporal.PlainDate;
  today: Temporal.PlainDate;
  zone: string;
  labelledBy: string;
  stale: boolean;
  onOpen: (event: CalendarEventAnswer) => void;
  onAdd: (date: Temporal.PlainDate) => void;
}) {
  const layout = layoutWeek(events, monday, zone);
  const scroller = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // The hour before under the sticky day headers, so the first shown hour's line is in view.
    if (scroller.current) scroller.current.scrollTop = (FIRST_SHOWN_HOUR - 1) * HOUR_PX;
  }, []);
  const hasAllDay = layout.allDay.some((d) => d.length > 0);
  return (
    <section
      aria-labelledby={labelledBy}
      aria-busy={stale}
      className={cn('min-w-0 rounded-md border border-border transition-opacity', stale && 'opacity-60')}
    >
      <div ref={scroller} className="max-h-[34rem] overflow-auto" data-testid="calendar-week">
        <div className="min-w-[42rem]">
          <div className={cn(COLUMNS, 'sticky top-0 z-20 border-b border-border bg-white')}>
            <div />
            {layout.days.map((day) => {
              const isToday = day.equals(today);
              return (
                <div key={day.toString()} className="flex items-center justify-between gap-1 border-l border-border px-2 py-1.5">
                  <span
                    className={cn('text-xs font-medium text-slate-600', isToday && 'text-brand-800')}
                    aria-current={isToday ? 'date' : undefined}
                  >
                    {day.toLocaleString('en-US', { weekday: 'short' })}{' '}
                    <span
                      className={cn(
                        'inline-flex size-6 items-center justify-center rounded-full text-sm text-slate-900',
                        isToday && 'bg-brand-700 text-white',
                      )}
                    >
                      {day.day}
                    </span>
                  </span>
                  <button
                    type="button"
                    className="rounded p-1 text-slate-500 hover:bg-brand-50 hover:text-brand-800"
                    aria-label={`Add an event on ${dayLabel(day)}`}
                    onClick={() => onAdd(day)}
                  >
                    <Plus className="size-3.5" aria-hidden="true" />
                  </button>
                </div>
              );
            })}
            {hasAllDay ? (
              <>
                <div className="px-1 py-1 text-right text-[0.65rem] text-slate-500">All day</div>
                {layout.allDay.map((dayEvents, i) => (
                  <ul
                    key={layout.days[i]?.toString()}
                    className="grid gap-0.5 border-l border-border p-0.5"
                    aria-label={`${dayLabel(layout.days[i]!)}, all day`}
                  >
                    {dayEvents.map((event) => (
                      <li key={event.id}>
                        <EventButton event={event} zone={zone} onOpen={onOpen} className="w-full px-1.5 py-0.5 text-xs">
                          <span className="block w-full truncate font-medium">{event.summary || '(No title)'}</span>
                        </EventButton>
                      </li>
                    ))}
                  </ul>
                ))}
              </>
            ) : null}
          </div>
          <div className={cn(COLUMNS, 'relative')} style={{ height: 24 * HOUR_PX }}>
            <div aria-hidden="true" className="relative">
              {Array.from({ length: 23 }, (_, i) => i + 1).map((hour) => (
                <span
                  key={hour}
                  className="absolute right-1.5 -translate-y-1/2 text-[0.65rem] text-slate-500"
                  style={{ top: hour * HOUR_PX }}
                >
                  {hourText(hour)}
                </span>
              ))}
            </div>
            {layout.days.map((day, i) => (
              <DayColumn key={day.toString()} day={day} pieces={layout.timed[i] ?? []} zone={zone} onOpen={onOpen} />
            ))}
          </div>
        </div>
      </div>
    </section>
  );
}

function DayColumn({
  day,
  pieces,
  zone,
  onOpen,
}: {
  day: Temporal.PlainDate;
  pieces: Piece[];
  zone: string;
  onOpen: (event: CalendarEventAnswer) => void;
}) {
  return (
    <div
      className="relative border-l border-border"
      style={{
        backgroundImage: `repeating-linear-gradient(to bottom, transparent 0 ${HOUR_PX - 1}px, #e2e8f0 ${HOUR_PX - 1}px ${HOUR_PX}px)`,
      }}
    >
      <ul aria-label={dayLabel(day)} className="absolute inset-0">
        {pieces.map((piece) => {
          const top = (piece.startMinute / 60) * HOUR_PX;
          const height = Math.max(((piece.endMinute - piece.startMinute) / 60) * HOUR_PX, 20);
          const width = 100 / piece.lanes;
          return (
            <li
              key={`${piece.event.id}-${piece.startMinute}`}
              className="absolute px-0.5"
              style={{ top, height, left: `${piece.lane * width}%`, width: `${width}%` }}
            >
              <EventButton event={piece.event} zone={zone} onOpen={onOpen} className="size-full overflow-hidden px-1.5 py-0.5 text-xs">
                <span className="flex w-full min-w-0 items-center gap-1 font-medium">
                  {piece.event.readOnly ? <Lock className="size-3 shrink-0" aria-hidden="true" /> : null}
                  {piece.event.recurringEventId ? <Repeat className="size-3 shrink-0" aria-hidden="true" /> : null}
                  <span className="truncate">{piece.event.summary || '(No title)'}</span>
                </span>
                {height >= 36 ? (
                  <span className="block w-full truncate opacity-80">
                    {piece.fromBefore ? '…' : minuteText(piece.startMinute)} – {piece.goesOn ? '…' : minuteText(piece.endMinute)}
                  </span>
                ) : null}
              </EventButton>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function EventButton({
  event,
  zone,
  onOpen,
  className,
  children,
}: {
  event: CalendarEventAnswer;
  zone: string;
  onOpen: (event: CalendarEventAnswer) => void;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      data-kind={event.kind}
      aria-label={eventLabel(event, zone)}
      onClick={() => onOpen(event)}
      className={cn(
        'flex flex-col items-start justify-start rounded-md border border-l-4 text-left leading-tight shadow-sm',
        KIND_CLASSES[event.kind],
        event.status === 'tentative' && 'border-dashed',
        className,
      )}
    >
      {children}
    </button>
  );
}
