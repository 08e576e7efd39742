import { Temporal } from 'temporal-polyfill';
import type { HoursAndBusy } from '../../src/domain/calendar/calendarHours.ts';
import { occurrencesBetween } from '../../src/domain/calendar/recurrence.ts';

/**
 * A tutor's calendar time for the sessions ports in tests: a daily "Topmark Hours" series from
 * `startTime` to `endTime` in `zone` (expanded like any calendar's series) and nothing busy.
 */
export function dailyHours(zone: string, startTime = '08:00', endTime = '20:00') {
  return async (_tutorId: string, from: string, to: string): Promise<HoursAndBusy> => {
    const hours = occurrencesBetween(
      {
        start: Temporal.PlainDateTime.from(`2020-01-01T${startTime}`),
        end: Temporal.PlainDateTime.from(`2020-01-01T${endTime}`),
        timeZone: zone,
        recurrence: ['RRULE:FREQ=DAILY'],
      },
      Temporal.Instant.from(from),
      Temporal.Instant.from(to),
    ).map((o) => ({ start: o.start.toString(), end: o.end.toString() }));
    return { hours, busy: [] };
  };
}
