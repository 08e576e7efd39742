import type { CalendarEventAnswer } from '@shared/tutors/calendarEventsApi.ts';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { layoutWeek, mondayOf, weekWindow } from './calendarWeekLayout.ts';

const TORONTO = 'America/Toronto';
const event = (id: string, start: string, end: string, patch: Partial<CalendarEventAnswer> = {}): CalendarEventAnswer => ({
  id,
  status: 'confirmed',
  summary: id,
  description: null,
  start: start.length === 10 ? { date: start } : { dateTime: start, timeZone: TORONTO },
  end: end.length === 10 ? { date: end } : { dateTime: end, timeZone: TORONTO },
  recurrence: null,
  recurringEventId: null,
  transparency: 'opaque',
  kind: 'busy',
  readOnly: false,
  fromWeeklyHours: false,
  ...patch,
});
/** The week of Monday 2026-03-02 (Toronto moves to EDT on Sunday 2026-03-08). */
const monday = Temporal.PlainDate.from('2026-03-02');

describe('the week view layout', () => {
  it('runs Monday to Sunday, asked for as the instants of its midnights', () => {
    expect(mondayOf(Temporal.PlainDate.from('2026-03-08')).toString()).toBe('2026-03-02');
    expect(mondayOf(monday).toString()).toBe('2026-03-02');
    expect(weekWindow(monday, TORONTO)).toEqual({ from: '2026-03-02T05:00:00Z', to: '2026-03-09T04:00:00Z' });
  });

  it('places timed events by wall-clock minutes, cuts one running past midnight, and puts all-day events apart', () => {
    const layout = layoutWeek(
      [
        event('late', '2026-03-03T22:30:00-05:00', '2026-03-04T01:30:00-05:00'),
        event('sunday', '2026-03-08T07:00:00-04:00', '2026-03-08T09:00:00-04:00'),
        event('away', '2026-03-05', '2026-03-07'),
        event('gone', '2026-03-02T09:00:00-05:00', '2026-03-02T10:00:00-05:00', { status: 'cancelled' }),
      ],
      monday,
      TORONTO,
    );
    const spans = layout.timed.map((day) =>
      day.map((p) => `${p.event.id} ${p.startMinute}-${p.endMinute}${p.fromBefore ? '<' : ''}${p.goesOn ? '>' : ''}`),
    );
    expect(spans).toEqual([[], ['late 1350-1440>'], ['late 0-90<'], [], [], [], ['sunday 420-540']]);
    expect(layout.allDay.map((day) => day.map((e) => e.id))).toEqual([[], [], [], ['away'], ['away'], [], []]);
  });

  it('sets overlapping events side by side and lets the rest take the whole width', () => {
    const layout = layoutWeek(
      [
        event('hours', '2026-03-02T09:00:00-05:00', '2026-03-02T12:00:00-05:00', { kind: 'hours' }),
        event('dentist', '2026-03-02T10:00:00-05:00', '2026-03-02T11:00:00-05:00'),
        event('call', '2026-03-02T10:30:00-05:00', '2026-03-02T10:45:00-05:00'),
        event('evening', '2026-03-02T18:00:00-05:00', '2026-03-02T19:00:00-05:00'),
      ],
      monday,
      TORONTO,
    );
    expect(layout.timed[0]?.map((p) => [p.event.id, p.lane, p.lanes])).toEqual([
      ['hours', 0, 3],
      ['dentist', 1, 3],
      ['call', 2, 3],
      ['evening', 0, 1],
    ]);
  });
});
