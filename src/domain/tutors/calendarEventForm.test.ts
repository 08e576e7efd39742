import { describe, expect, it } from 'vitest';
import {
  type CalendarEventFormValues,
  COUNT_RANGE,
  calendarEventFormSchema,
  END_AFTER_START,
  eventFormValues,
  formCanShow,
  newEventFormValues,
  PICK_A_DAY,
  toCalendarEventBody,
  UNTIL_AFTER_START,
} from './calendarEventForm.ts';
import { type CalendarEventAnswer, calendarEventBody, TITLE_REQUIRED } from './calendarEventsApi.ts';

const TORONTO = 'America/Toronto';
/** Tuesday 2026-03-03. */
const form = (patch: Partial<CalendarEventFormValues> = {}): CalendarEventFormValues => ({
  ...newEventFormValues('2026-03-03', '07:00'),
  summary: 'Topmark Hours',
  ...patch,
});
const problems = (values: CalendarEventFormValues) => {
  const parsed = calendarEventFormSchema.safeParse(values);
  return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message]));
};
const answer = (patch: Partial<CalendarEventAnswer>): CalendarEventAnswer => ({
  id: 'abcdef12345',
  status: 'confirmed',
  summary: 'Topmark Hours',
  description: null,
  start: { dateTime: '2026-03-08T07:00:00-04:00', timeZone: TORONTO },
  end: { dateTime: '2026-03-08T09:00:00-04:00', timeZone: TORONTO },
  recurrence: null,
  recurringEventId: null,
  transparency: 'transparent',
  kind: 'hours',
  readOnly: false,
  fromWeeklyHours: false,
  ...patch,
});

describe('the calendar event form', () => {
  it('makes a weekly series start on its first chosen day, in the tutor’s zone, free when it is Topmark Hours', () => {
    const body = toCalendarEventBody(form({ repeat: 'weekly', days: ['SU', 'SA'], ends: 'after', count: '6', show: 'busy' }), TORONTO);
    expect(body).toEqual({
      summary: 'Topmark Hours',
      description: null,
      start: { dateTime: '2026-03-07T07:00:00', timeZone: TORONTO },
      end: { dateTime: '2026-03-07T08:00:00', timeZone: TORONTO },
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=SA,SU;COUNT=6'],
      transparency: 'transparent',
    });
    // What the form sends is what the API takes.
    expect(calendarEventBody.safeParse(body).success).toBe(true);
  });

  it('ends a series on a day (its last second in the zone, as UTC), runs to midnight, and keeps a busy event opaque', () => {
    const body = toCalendarEventBody(
      form({ summary: ' Gym ', repeat: 'weekly', days: ['TU'], ends: 'on', until: '2026-03-31', startTime: '22:00', endTime: '00:00' }),
      TORONTO,
    );
    expect(body).toMatchObject({
      summary: 'Gym',
      start: { dateTime: '2026-03-03T22:00:00', timeZone: TORONTO },
      end: { dateTime: '2026-03-04T00:00:00', timeZone: TORONTO },
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20260401T035959Z'],
      transparency: 'opaque',
    });
    expect(toCalendarEventBody(form({ summary: 'Walk', show: 'free' }), TORONTO)).toMatchObject({
      transparency: 'transparent',
      recurrence: [],
    });
    expect(toCalendarEventBody(form({ allDay: true }), TORONTO)).toMatchObject({
      start: { date: '2026-03-03' },
      end: { date: '2026-03-04' },
    });
  });

  it('keeps the series’ cancelled days (EXDATE) on the same dates when its time changes; one occurrence sends no recurrence', () => {
    const previous = ['RRULE:FREQ=WEEKLY;BYDAY=SU', 'EXDATE:20260315T110000Z', 'EXDATE;TZID=America/Toronto:20260322T070000'];
    const moved = toCalendarEventBody(form({ repeat: 'weekly', days: ['SU'], startTime: '10:00', endTime: '11:00' }), TORONTO, {
      previousRecurrence: previous,
    });
    expect(moved.recurrence).toEqual(['RRULE:FREQ=WEEKLY;BYDAY=SU', 'EXDATE:20260315T140000Z,20260322T140000Z']);
    const custom = toCalendarEventBody(form({ repeat: 'custom' }), TORONTO, { previousRecurrence: ['RRULE:FREQ=DAILY;INTERVAL=2'] });
    expect(custom.recurrence).toEqual(['RRULE:FREQ=DAILY;INTERVAL=2']);
    expect('recurrence' in toCalendarEventBody(form({ repeat: 'weekly', days: ['SU'] }), TORONTO, { occurrence: true })).toBe(false);
  });

  it('reads a series back into the form; rules it cannot show are kept as custom', () => {
    const weekly = eventFormValues(
      answer({ recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=SU,MO;UNTIL=20260401T035959Z', 'EXDATE:20260315T110000Z'] }),
      TORONTO,
    );
    expect(weekly).toMatchObject({
      summary: 'Topmark Hours',
      date: '2026-03-08',
      startTime: '07:00',
      endTime: '09:00',
      repeat: 'weekly',
      days: ['MO', 'SU'],
      ends: 'on',
      until: '2026-03-31',
      show: 'free',
    });
    expect(eventFormValues(answer({ recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'] }), TORONTO)).toMatchObject({
      days: ['SU'],
      ends: 'after',
      count: '3',
    });
    expect(eventFormValues(answer({ recurrence: ['RRULE:FREQ=DAILY'] }), TORONTO).repeat).toBe('custom');
    expect(eventFormValues(answer({ recurrence: ['RRULE:FREQ=WEEKLY;INTERVAL=2'] }), TORONTO).repeat).toBe('custom');
    expect(eventFormValues(answer({ start: { date: '2026-03-08' }, end: { date: '2026-03-09' } }), TORONTO)).toMatchObject({
      allDay: true,
      date: '2026-03-08',
    });
  });

  it('shows only what fits in one day', () => {
    expect(formCanShow(answer({}), TORONTO)).toBe(true);
    expect(formCanShow(answer({ end: { dateTime: '2026-03-09T00:00:00-04:00' } }), TORONTO)).toBe(true);
    expect(formCanShow(answer({ end: { dateTime: '2026-03-09T01:00:00-04:00' } }), TORONTO)).toBe(false);
    expect(formCanShow(answer({ start: { date: '2026-03-08' }, end: { date: '2026-03-10' } }), TORONTO)).toBe(false);
  });

  it('says what is missing next to each field', () => {
    expect(problems(form({ summary: '  ', endTime: '06:00' }))).toEqual({ summary: TITLE_REQUIRED, endTime: END_AFTER_START });
    expect(problems(form({ repeat: 'weekly', days: [], ends: 'after', count: '0' }))).toEqual({ days: PICK_A_DAY, count: COUNT_RANGE });
    expect(problems(form({ repeat: 'weekly', ends: 'on', until: '2026-03-02' }))).toEqual({ until: UNTIL_AFTER_START });
    expect(problems(form({ date: '2026-02-30' }))).toMatchObject({ date: expect.any(String) });
    expect(problems(form({ allDay: true, startTime: '', endTime: '' }))).toEqual({});
    // Repeat settings of a form that does not repeat are not checked.
    expect(problems(form({ days: [], count: 'x' }))).toEqual({});
  });
});
