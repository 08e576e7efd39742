import { EndBeforeStartError, InvalidDayOfWeekError, InvalidTimeError, validateWeeklyHours } from '@shared/calendar/availability.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus, Trash2 } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { serverMessage } from '../../app/api.ts';
import { browserTimezone } from '../../app/auth/timezoneSync.ts';
import type { User } from '../../app/auth/types.ts';
import { FieldMessage, selectClasses } from '../../components/FieldMessage.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { PendingButton, Skeleton } from '../../components/parts.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { timezoneLabel } from '../../lib/timezones.ts';
import { tutorKeys, tutorsApi } from './api.ts';
import { TimezoneOptions } from './TimezoneSelect.tsx';

export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

interface Row {
  key: number;
  dayOfWeek: number;
  startTime: string;
  endTime: string;
}

/** "9:00 AM" from "09:00" ("24:00" is midnight). */
export function formatTime(hhmm: string): string {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  const hour = h % 24;
  return `${hour % 12 === 0 ? 12 : hour % 12}:${String(m).padStart(2, '0')} ${hour < 12 ? 'AM' : 'PM'}`;
}

/** The first broken rule of the rows, as a message for that row (the domain's `validateWeeklyHours`). */
function rowProblem(rows: readonly Row[]): { index: number; message: string } | null {
  try {
    validateWeeklyHours(rows);
    return null;
  } catch (error) {
    const field = (error as { field?: string }).field ?? '';
    const index = Number(/\[(\d+)\]/.exec(field)?.[1] ?? 0);
    if (error instanceof EndBeforeStartError) return { index, message: 'The end time must be after the start time' };
    if (error instanceof InvalidTimeError) return { index, message: 'Please enter a start and an end time' };
    if (error instanceof InvalidDayOfWeekError) return { index, message: 'Please choose a day' };
    return { index, message: error instanceof Error ? error.message : 'Please check these hours' };
  }
}

/**
 * The weekly hours (spec part 2 §1, §2): rows of day, start and end in a chosen time zone, saved
 * as recurring "Topmark Hours" events (POST /api/tutor/availability). Checked with the domain's
 * rule before sending; the server's refusal is shown with its details.
 */
export function WeeklyHoursEditor({
  user,
  submitLabel = 'Save hours',
  onSaved,
}: {
  user: User;
  submitLabel?: string;
  onSaved?: () => void;
}) {
  const hours = useQuery({ queryKey: tutorKeys.availability, queryFn: tutorsApi.availability });
  if (hours.isPending) {
    return (
      <div role="status" aria-label="Loading your weekly hours" className="grid gap-3">
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
      </div>
    );
  }
  if (hours.isError) {
    return <LoadError title="Failed to fetch availability" onRetry={() => void hours.refetch()} retrying={hours.isRefetching} />;
  }
  // Saved hours the calendar does not hold yet (isActive false: the calendar is unreachable) are still the tutor's.
  const saved = hours.data;
  const zone = saved[0]?.timezone ?? user.timezone ?? browserTimezone() ?? 'America/New_York';
  return (
    <HoursForm
      key={hours.dataUpdatedAt}
      initial={saved.map((h) => ({ dayOfWeek: h.dayOfWeek, startTime: h.startTime.slice(0, 5), endTime: h.endTime.slice(0, 5) }))}
      initialZone={zone}
      submitLabel={submitLabel}
      onSaved={onSaved}
    />
  );
}

function HoursForm({
  initial,
  initialZone,
  submitLabel,
  onSaved,
}: {
  initial: Omit<Row, 'key'>[];
  initialZone: string;
  submitLabel: string;
  onSaved?: (() => void) | undefined;
}) {
  const queryClient = useQueryClient();
  const id = useId();
  const nextKey = useRef(0);
  const keyed = (r: Omit<Row, 'key'>): Row => ({ ...r, key: nextKey.current++ });
  const [rows, setRows] = useState<Row[]>(() =>
    initial.length > 0 ? initial.map(keyed) : [keyed({ dayOfWeek: 1, startTime: '09:00', endTime: '17:00' })],
  );
  const [timezone, setTimezone] = useState(initialZone);
  const [problem, setProblem] = useState<{ index: number; message: string } | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);

  const update = (key: number, patch: Partial<Row>) => {
    setProblem(null);
    setRows((current) => current.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  };
  const save = useMutation({
    mutationFn: () =>
      tutorsApi.saveAvailability(
        rows.map(({ dayOfWeek, startTime, endTime }) => ({ dayOfWeek, startTime, endTime })),
        timezone,
      ),
    onSuccess: async () => {
      setServerError(null);
      await queryClient.invalidateQueries({ queryKey: tutorKeys.availability });
      await queryClient.invalidateQueries({ queryKey: ['/api/tutor'] });
      toast({ title: 'Availability updated', description: 'Your Topmark Hours are in your calendar.', variant: 'success' });
      onSaved?.();
    },
    onError: (e) => {
      const message = serverMessage(e, 'Failed to update availability');
      setServerError(message);
      toast({ title: 'Failed to update availability', description: message, variant: 'destructive' });
    },
  });
  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    setServerError(null);
    const found = rowProblem(rows);
    setProblem(found);
    if (!found) save.mutate();
  };

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <div className="grid max-w-sm gap-1.5">
        <label htmlFor={`${id}-zone`} className="text-sm font-medium">
          Time zone of these hours
        </label>
        <select id={`${id}-zone`} className={selectClasses} value={timezone} onChange={(e) => setTimezone(e.target.value)}>
          <TimezoneOptions current={timezone} />
        </select>
      </div>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">No weekly hours yet. Add the times you can teach each week.</p>
      ) : (
        <ul className="grid gap-3" aria-label="Weekly hours">
          {rows.map((row, index) => {
            const rowId = `${id}-row-${row.key}`;
            const bad = problem?.index === index ? problem.message : null;
            return (
              <li key={row.key} className="grid gap-2 rounded-md border border-border bg-white p-3">
                <div className="grid grid-cols-2 items-end gap-2 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_minmax(0,1fr)_auto]">
                  <div className="col-span-2 grid gap-1 sm:col-span-1">
                    <label htmlFor={`${rowId}-day`} className="text-xs font-medium text-slate-600">
                      Day
                    </label>
                    <select
                      id={`${rowId}-day`}
                      className={selectClasses}
                      value={row.dayOfWeek}
                      onChange={(e) => update(row.key, { dayOfWeek: Number(e.target.value) })}
                    >
                      {DAY_NAMES.map((name, day) => (
                        <option key={name} value={day}>
                          {name}
                        </option>
                      ))}
                    </select>
                  </div>
                  <div className="grid gap-1">
                    <label htmlFor={`${rowId}-start`} className="text-xs font-medium text-slate-600">
                      Start
                    </label>
                    <Input
                      id={`${rowId}-start`}
                      type="time"
                      step={900}
                      value={row.startTime}
                      aria-invalid={bad ? true : undefined}
                      aria-describedby={bad ? `${rowId}-error` : undefined}
                      onChange={(e) => update(row.key, { startTime: e.target.value })}
                    />
                  </div>
                  <div className="grid gap-1">
                    <label htmlFor={`${rowId}-end`} className="text-xs font-medium text-slate-600">
                      End
                    </label>
                    <Input
                      id={`${rowId}-end`}
                      type="time"
                      step={900}
                      value={row.endTime}
                      aria-invalid={bad ? true : undefined}
                      aria-describedby={bad ? `${rowId}-error` : undefined}
                      onChange={(e) => update(row.key, { endTime: e.target.value })}
                    />
                  </div>
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    className="col-span-2 justify-self-end sm:col-span-1"
                    aria-label={`Remove ${DAY_NAMES[row.dayOfWeek] ?? ''} ${row.startTime}–${row.endTime}`}
                    onClick={() => {
                      setProblem(null);
                      setRows((current) => current.filter((r) => r.key !== row.key));
                    }}
                  >
                    <Trash2 aria-hidden="true" />
                  </Button>
                </div>
                {bad ? <FieldMessage id={`${rowId}-error`} error={{ message: bad }} /> : null}
              </li>
            );
          })}
        </ul>
      )}
      <div className="flex flex-wrap gap-3">
        <Button
          type="button"
          variant="outline"
          onClick={() => {
            const last = rows.at(-1);
            setRows((current) => [
              ...current,
              keyed(
                last
                  ? { dayOfWeek: (last.dayOfWeek + 1) % 7, startTime: last.startTime, endTime: last.endTime }
                  : { dayOfWeek: 1, startTime: '09:00', endTime: '17:00' },
              ),
            ]);
          }}
        >
          <Plus aria-hidden="true" />
          Add hours
        </Button>
        <PendingButton type="submit" pending={save.isPending} label={submitLabel} pendingLabel="Saving..." />
      </div>
      <p className="text-xs text-slate-500">Times are in {timezoneLabel(timezone)} time.</p>
      <div role="alert">{serverError ? <FieldMessage id={`${id}-server-error`} error={{ message: serverError }} /> : null}</div>
    </form>
  );
}
