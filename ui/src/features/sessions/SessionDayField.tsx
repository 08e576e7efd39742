import type { ComponentProps, ReactNode } from 'react';
import { useId } from 'react';
import { DateCalendar } from '../../components/ui/calendar.tsx';

/** What the field hands to its calendar as it is: the window, the chosen day and its test id. */
type DayCalendarProps = Pick<ComponentProps<typeof DateCalendar>, 'min' | 'max' | 'value' | 'onChange' | 'autoFocus'> & {
  testId: string;
};

/**
 * The day a session is booked or moved to (spec part 2 §2, §5): a visible label naming the
 * calendar, the calendar limited to the booking window, and a hint saying that window. The booking
 * and reschedule dialogs differ only in their words, window and test id.
 */
export function SessionDayField({
  label,
  hint,
  ...calendar
}: DayCalendarProps & {
  /** "Session date", "New date". */
  label: string;
  /** The window in words, read after the label by assistive technology. */
  hint: ReactNode;
}) {
  const labelId = useId();
  const hintId = useId();
  return (
    <div className="grid gap-2">
      <p id={labelId} className="text-sm leading-none font-medium text-slate-900">
        {label}
      </p>
      <DateCalendar labelledBy={labelId} describedBy={hintId} {...calendar} />
      <p id={hintId} className="text-xs text-slate-500">
        {hint}
      </p>
    </div>
  );
}
