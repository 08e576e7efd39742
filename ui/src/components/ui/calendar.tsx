import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useMemo } from 'react';
import { DayPicker } from 'react-day-picker';
import { cn } from '../../lib/utils.ts';

/** A yyyy-MM-dd as a local Date at midnight: the calendar only compares calendar days. */
function dayOf(value: string): Date {
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
}

function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

const LONG_DATE = new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });

/**
 * An inline month calendar for choosing one day (react-day-picker: a grid operated with arrow
 * keys, Page Up/Down for months, Home/End for the week, Enter or Space to choose).
 *
 * Days are plain yyyy-MM-dd strings. `min` and `max` are the first and last choosable days as the
 * caller computed them in the zone that matters (the viewer's, or New York's for booking), so
 * "today" is `min` rather than the browser's date: a viewer whose computer is set to another zone
 * still sees the bookable window of their own zone. Days outside it are disabled and the months
 * outside it cannot be reached.
 */
export function DateCalendar({
  value,
  onChange,
  min,
  max,
  isDisabled,
  labelledBy,
  describedBy,
  className,
  testId,
  autoFocus,
}: {
  /** The chosen day, or '' for none. */
  value: string;
  onChange: (day: string) => void;
  min: string;
  max: string;
  /** Further days that cannot be chosen (e.g. no availability), as yyyy-MM-dd. */
  isDisabled?: (day: string) => boolean;
  /** The id of the visible label naming the calendar ("New date"). */
  labelledBy: string;
  describedBy?: string;
  className?: string;
  testId?: string;
  /** Focus the chosen day (or today) on mount. */
  autoFocus?: boolean;
}) {
  const first = useMemo(() => dayOf(min), [min]);
  const last = useMemo(() => dayOf(max), [max]);
  const selected = value ? dayOf(value) : undefined;
  const disabled = useMemo(
    () => [{ before: first }, { after: last }, ...(isDisabled ? [(date: Date) => isDisabled(isoDay(date))] : [])],
    [first, last, isDisabled],
  );

  return (
    <fieldset
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      data-testid={testId}
      className={cn('w-fit rounded-md border border-border bg-background p-3', className)}
    >
      <DayPicker
        mode="single"
        autoFocus={autoFocus}
        selected={selected}
        onSelect={(date) => {
          // Choosing the chosen day again keeps it (single mode would otherwise clear it).
          if (date) onChange(isoDay(date));
        }}
        today={first}
        defaultMonth={selected ?? first}
        startMonth={first}
        endMonth={last}
        disabled={disabled}
        // Announced by screen readers when the choice changes (the footer is a live region).
        footer={<p className="mt-2 text-sm text-slate-700">{selected ? `Chosen: ${LONG_DATE.format(selected)}` : 'No date chosen yet.'}</p>}
        classNames={{
          root: 'relative',
          months: 'relative flex flex-col',
          month: 'grid gap-2',
          nav: 'absolute inset-x-0 top-0 flex items-center justify-between',
          button_previous:
            'inline-flex size-8 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 disabled:pointer-events-none disabled:opacity-40 focus-visible:outline-2 focus-visible:outline-brand-600',
          button_next:
            'inline-flex size-8 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 disabled:pointer-events-none disabled:opacity-40 focus-visible:outline-2 focus-visible:outline-brand-600',
          month_caption: 'flex h-8 items-center justify-center',
          caption_label: 'text-sm font-semibold text-slate-900',
          month_grid: 'border-collapse',
          weekdays: 'flex',
          weekday: 'w-10 text-center text-xs font-medium text-slate-500',
          week: 'mt-1 flex',
          day: 'size-10 p-0 text-center text-sm',
          day_button:
            'inline-flex size-10 items-center justify-center rounded-md text-slate-900 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:text-slate-400 disabled:line-through disabled:hover:bg-transparent',
          selected: '[&>button]:bg-brand-700 [&>button]:text-white [&>button]:hover:bg-brand-800',
          today: '[&>button]:font-bold [&>button]:underline [&>button]:underline-offset-4',
          outside: 'invisible',
          disabled: '',
          hidden: 'invisible',
        }}
        components={{
          Chevron: ({ orientation }) =>
            orientation === 'left' ? (
              <ChevronLeft className="size-4" aria-hidden="true" />
            ) : (
              <ChevronRight className="size-4" aria-hidden="true" />
            ),
        }}
      />
    </fieldset>
  );
}
