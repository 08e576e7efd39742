import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CalendarError,
  type CalendarEvent,
  type CalendarPort,
  type CalendarTarget,
  calendarEventId,
  type EventTime,
} from './calendarPort.ts';

export interface CalendarContractTarget {
  port: CalendarPort;
  /** A connected, writable calendar for a new tutor. */
  connect(): Promise<{ target: CalendarTarget; email: string; ownerKey: string }>;
  /** Takes the tutor's grant away (OAuth: the refresh token is revoked). */
  revoke(ownerKey: string): Promise<void>;
  dispose(): Promise<void>;
}

const NY = 'America/New_York';
const LONDON = 'Europe/London';

const instantOf = (t: EventTime) => ('date' in t ? t.date : Temporal.Instant.from(t.dateTime).toString());
const span = (e: CalendarEvent) => `${instantOf(e.start)}/${instantOf(e.end)}`;
const failure = async (p: Promise<unknown>) =>
  (await p.then(
    () => null,
    (e: unknown) => e,
  )) as CalendarError | null;
const MEET_LINK = /^https:\/\/[a-z.]+\/[a-z]{3}-[a-z]{4}-[a-z]{3}$/;

/** One behaviour, two adapters: Google (against a local server speaking its API) and the sandbox. */
export function calendarContract(name: string, create: () => Promise<CalendarContractTarget>): void {
  describe(`calendar contract: ${name}`, () => {
    let harness: CalendarContractTarget;
    beforeAll(async () => {
      harness = await create();
    });
    afterAll(async () => harness?.dispose());

    const tutor = async () => {
      const connected = await harness.connect();
      return { ...connected, calendar: harness.port.calendar(connected.target) };
    };
    const id = () => calendarEventId('contract', randomUUID());

    it('reports a connected calendar as accessible, with its address and zone', async () => {
      const { calendar, email } = await tutor();
      expect(await calendar.status()).toEqual({ accessible: true, email, isConnected: true, timeZone: expect.any(String), reason: null });
    });

    it('creates an event under the caller’s id once: a retry answers the same event', async () => {
      const { calendar } = await tutor();
      const eventId = id();
      const input = {
        summary: 'Algebra with Mira',
        description: 'Chapter 4',
        start: { dateTime: '2026-03-10T15:00:00-04:00' },
        end: { dateTime: '2026-03-10T16:00:00-04:00' },
        attendees: [{ email: 'student@example.com' }],
        privateProperties: { topmark: 'session', sessionId: 's-1' },
      };
      const created = await calendar.createEvent(eventId, input);
      expect(created).toMatchObject({
        id: eventId,
        status: 'confirmed',
        summary: 'Algebra with Mira',
        description: 'Chapter 4',
        transparency: 'opaque',
        recurrence: null,
        recurringEventId: null,
        meetingLink: null,
        privateProperties: { topmark: 'session', sessionId: 's-1' },
      });
      expect(created.attendees.map((a) => a.email)).toEqual(['student@example.com']);
      expect(span(created)).toBe('2026-03-10T19:00:00Z/2026-03-10T20:00:00Z');
      const retried = await calendar.createEvent(eventId, { ...input, summary: 'a retry never overwrites' });
      expect(retried.summary).toBe('Algebra with Mira');
      const listed = await calendar.listEvents({ from: '2026-03-10T00:00:00Z', to: '2026-03-11T00:00:00Z' });
      expect(listed.map((e) => e.id)).toEqual([eventId]);
      expect(await calendar.getEvent(eventId)).toMatchObject({ id: eventId, summary: 'Algebra with Mira' });
    });

    it('refuses ids Google would refuse and empty time ranges', async () => {
      const { calendar } = await tutor();
      const slot = { summary: 'x', start: { dateTime: '2026-03-10T15:00:00Z' }, end: { dateTime: '2026-03-10T16:00:00Z' } };
      for (const bad of ['abc', 'session-1', 'UPPERCASE1', 'wxyz12345']) {
        expect((await failure(calendar.createEvent(bad, slot)))?.reason, bad).toBe('invalid');
      }
      const empty = await failure(calendar.createEvent(id(), { ...slot, end: slot.start }));
      expect(empty?.reason).toBe('invalid');
    });

    it('adds a Meet link when asked, at creation or later, and keeps it across retries', async () => {
      const { calendar } = await tutor();
      const eventId = id();
      const input = {
        summary: 'Session',
        start: { dateTime: '2026-03-11T10:00:00', timeZone: NY },
        end: { dateTime: '2026-03-11T11:00:00', timeZone: NY },
        conference: { requestId: `meet-${eventId}` },
      };
      const created = await calendar.createEvent(eventId, input);
      expect(created.meetingLink).toMatch(MEET_LINK);
      expect(created.conference).toEqual({ requestId: `meet-${eventId}`, status: 'success' });
      expect(created.start).toEqual({ dateTime: '2026-03-11T10:00:00-04:00', timeZone: NY });
      expect((await calendar.createEvent(eventId, input)).meetingLink).toBe(created.meetingLink);
      expect((await calendar.getEvent(eventId))?.meetingLink).toBe(created.meetingLink);

      // "Send Invite": an event without a link gets one.
      const plain = id();
      await calendar.createEvent(plain, { ...input, conference: null });
      expect((await calendar.getEvent(plain))?.meetingLink).toBeNull();
      const invited = await calendar.updateEvent(
        plain,
        { conference: { requestId: `meet-${plain}` }, attendees: [{ email: 'parent@example.com' }] },
        { sendUpdates: 'all' },
      );
      expect(invited.meetingLink).toMatch(MEET_LINK);
      expect(invited.attendees.map((a) => a.email)).toEqual(['parent@example.com']);
      expect(invited.meetingLink).not.toBe(created.meetingLink);
    });

    it('updates the fields given and nothing else; an unknown event is not_found', async () => {
      const { calendar } = await tutor();
      const eventId = id();
      await calendar.createEvent(eventId, {
        summary: 'Physics',
        description: 'Kinematics',
        start: { dateTime: '2026-03-12T14:00:00Z' },
        end: { dateTime: '2026-03-12T15:00:00Z' },
        privateProperties: { topmark: 'session' },
      });
      const moved = await calendar.updateEvent(eventId, {
        start: { dateTime: '2026-03-13T09:00:00-04:00' },
        end: { dateTime: '2026-03-13T10:00:00-04:00' },
      });
      expect(moved).toMatchObject({ summary: 'Physics', description: 'Kinematics', privateProperties: { topmark: 'session' } });
      expect(span(moved)).toBe('2026-03-13T13:00:00Z/2026-03-13T14:00:00Z');
      expect(span((await calendar.getEvent(eventId))!)).toBe('2026-03-13T13:00:00Z/2026-03-13T14:00:00Z');
      expect((await failure(calendar.updateEvent(id(), { summary: 'nobody' })))?.reason).toBe('not_found');
    });

    it('keeps a tentative status given at creation or by a change, and confirms again', async () => {
      const { calendar } = await tutor();
      const eventId = id();
      const slot = { start: { dateTime: '2026-03-12T14:00:00Z' }, end: { dateTime: '2026-03-12T15:00:00Z' } };
      expect((await calendar.createEvent(eventId, { summary: 'Maybe', ...slot, status: 'tentative' })).status).toBe('tentative');
      expect((await calendar.getEvent(eventId))?.status).toBe('tentative');
      expect((await calendar.updateEvent(eventId, { status: 'confirmed' })).status).toBe('confirmed');
      const other = id();
      await calendar.createEvent(other, { summary: 'Sure', ...slot });
      expect((await calendar.updateEvent(other, { status: 'tentative' })).status).toBe('tentative');
      const listed = await calendar.listEvents({ from: '2026-03-12T00:00:00Z', to: '2026-03-13T00:00:00Z' });
      expect(Object.fromEntries(listed.map((e) => [e.summary, e.status]))).toEqual({ Maybe: 'confirmed', Sure: 'tentative' });
    });

    it('deletes idempotently, and never brings a deleted id back', async () => {
      const { calendar } = await tutor();
      const eventId = id();
      const input = { summary: 'Gone soon', start: { dateTime: '2026-03-14T14:00:00Z' }, end: { dateTime: '2026-03-14T15:00:00Z' } };
      await calendar.createEvent(eventId, input);
      await calendar.deleteEvent(eventId);
      expect(await calendar.getEvent(eventId)).toBeNull();
      await calendar.deleteEvent(eventId);
      await calendar.deleteEvent(id());
      expect(await calendar.listEvents({ from: '2026-03-14T00:00:00Z', to: '2026-03-15T00:00:00Z' })).toEqual([]);
      expect((await failure(calendar.createEvent(eventId, input)))?.reason).toBe('conflict');
      expect((await failure(calendar.updateEvent(eventId, { summary: 'back?' })))?.reason).toBe('not_found');
    });

    it('expands weekly Topmark Hours in their zone across both New York DST changes', async () => {
      const { calendar } = await tutor();
      const series = id();
      await calendar.createEvent(series, {
        summary: 'Topmark Hours',
        start: { dateTime: '2026-03-02T09:00:00', timeZone: NY },
        end: { dateTime: '2026-03-02T12:00:00', timeZone: NY },
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,WE'],
        transparency: 'transparent',
        privateProperties: { topmark: 'hours' },
      });
      const march = await calendar.listEvents({ from: '2026-03-02T00:00:00Z', to: '2026-03-12T00:00:00Z' });
      expect(march.map(span)).toEqual([
        '2026-03-02T14:00:00Z/2026-03-02T17:00:00Z',
        '2026-03-04T14:00:00Z/2026-03-04T17:00:00Z',
        '2026-03-09T13:00:00Z/2026-03-09T16:00:00Z',
        '2026-03-11T13:00:00Z/2026-03-11T16:00:00Z',
      ]);
      expect(march[2]).toMatchObject({
        id: `${series}_20260309T130000Z`,
        recurringEventId: series,
        recurrence: null,
        summary: 'Topmark Hours',
        transparency: 'transparent',
        start: { dateTime: '2026-03-09T09:00:00-04:00', timeZone: NY },
      });
      const november = await calendar.listEvents({ from: '2026-10-28T00:00:00Z', to: '2026-11-03T00:00:00Z' });
      expect(november.map(span)).toEqual(['2026-10-28T13:00:00Z/2026-10-28T16:00:00Z', '2026-11-02T14:00:00Z/2026-11-02T17:00:00Z']);

      const masters = await calendar.listEvents({ from: '2026-03-02T00:00:00Z', to: '2026-03-12T00:00:00Z', expand: false });
      expect(masters).toHaveLength(1);
      expect(masters[0]).toMatchObject({ id: series, recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,WE'], recurringEventId: null });
    });

    it('ends series at COUNT and UNTIL (a London tutor across 2026-03-29)', async () => {
      const { calendar } = await tutor();
      const counted = id();
      const until = id();
      await calendar.createEvent(counted, {
        summary: 'Topmark Hours',
        start: { dateTime: '2026-03-23T18:00:00', timeZone: LONDON },
        end: { dateTime: '2026-03-23T19:00:00', timeZone: LONDON },
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=2'],
      });
      await calendar.createEvent(until, {
        summary: 'Choir',
        start: { dateTime: '2026-03-24T08:00:00', timeZone: LONDON },
        end: { dateTime: '2026-03-24T08:30:00', timeZone: LONDON },
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20260407T070000Z'],
      });
      const events = await calendar.listEvents({ from: '2026-03-01T00:00:00Z', to: '2026-05-01T00:00:00Z' });
      expect(events.map((e) => `${e.summary} ${span(e)}`)).toEqual([
        'Topmark Hours 2026-03-23T18:00:00Z/2026-03-23T19:00:00Z',
        'Choir 2026-03-24T08:00:00Z/2026-03-24T08:30:00Z',
        'Topmark Hours 2026-03-30T17:00:00Z/2026-03-30T18:00:00Z',
        'Choir 2026-03-31T07:00:00Z/2026-03-31T07:30:00Z',
        'Choir 2026-04-07T07:00:00Z/2026-04-07T07:30:00Z',
      ]);
    });

    it('changes or deletes one occurrence of a series without touching the others', async () => {
      const { calendar } = await tutor();
      const series = id();
      await calendar.createEvent(series, {
        summary: 'Topmark Hours',
        start: { dateTime: '2026-04-06T09:00:00', timeZone: NY },
        end: { dateTime: '2026-04-06T11:00:00', timeZone: NY },
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=4'],
      });
      const window = { from: '2026-04-01T00:00:00Z', to: '2026-05-01T00:00:00Z' };
      await calendar.deleteEvent(`${series}_20260413T130000Z`);
      expect(await calendar.getEvent(`${series}_20260413T130000Z`)).toBeNull();
      const moved = await calendar.updateEvent(`${series}_20260420T130000Z`, {
        start: { dateTime: '2026-04-20T14:00:00', timeZone: NY },
        end: { dateTime: '2026-04-20T15:00:00', timeZone: NY },
      });
      expect(moved).toMatchObject({ id: `${series}_20260420T130000Z`, recurringEventId: series, summary: 'Topmark Hours' });
      const events = await calendar.listEvents(window);
      expect(events.map(span)).toEqual([
        '2026-04-06T13:00:00Z/2026-04-06T15:00:00Z',
        '2026-04-20T18:00:00Z/2026-04-20T19:00:00Z',
        '2026-04-27T13:00:00Z/2026-04-27T15:00:00Z',
      ]);
      expect(await calendar.getEvent(`${series}_20260427T130000Z`)).toMatchObject({ recurringEventId: series, summary: 'Topmark Hours' });
      expect(await calendar.getEvent(`${series}_20260428T130000Z`)).toBeNull();
      // Deleting the series takes every occurrence, changed ones included.
      await calendar.deleteEvent(series);
      expect(await calendar.listEvents(window)).toEqual([]);
    });

    it('keeps changed and deleted occurrences as exceptions: the series’ lines stay the caller’s, and replacing them brings none back', async () => {
      const { calendar } = await tutor();
      const series = id();
      const rule = 'RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=4';
      await calendar.createEvent(series, {
        summary: 'Topmark Hours',
        start: { dateTime: '2026-04-06T09:00:00', timeZone: NY },
        end: { dateTime: '2026-04-06T11:00:00', timeZone: NY },
        recurrence: [rule],
      });
      await calendar.deleteEvent(`${series}_20260413T130000Z`);
      await calendar.updateEvent(`${series}_20260420T130000Z`, {
        start: { dateTime: '2026-04-20T14:00:00', timeZone: NY },
        end: { dateTime: '2026-04-20T15:00:00', timeZone: NY },
      });
      expect((await calendar.getEvent(series))?.recurrence).toEqual([rule]);
      // The caller's own EXDATE, sent with the lines it read: the exceptions are untouched.
      await calendar.updateEvent(series, { recurrence: [rule, 'EXDATE:20260427T130000Z'] });
      const window = { from: '2026-04-01T00:00:00Z', to: '2026-05-01T00:00:00Z' };
      expect((await calendar.listEvents(window)).map((e) => `${e.id.slice(-16)} ${span(e)}`)).toEqual([
        '20260406T130000Z 2026-04-06T13:00:00Z/2026-04-06T15:00:00Z',
        '20260420T130000Z 2026-04-20T18:00:00Z/2026-04-20T19:00:00Z',
      ]);
      expect(await calendar.freeBusy(window)).toEqual([
        { start: '2026-04-06T13:00:00Z', end: '2026-04-06T15:00:00Z' },
        { start: '2026-04-20T18:00:00Z', end: '2026-04-20T19:00:00Z' },
      ]);
    });

    it('lists events that overlap the window, filtered by a private property', async () => {
      const { calendar } = await tutor();
      const [a, b, c] = [id(), id(), id()];
      await calendar.createEvent(a, {
        summary: 'A',
        start: { dateTime: '2026-05-01T09:00:00Z' },
        end: { dateTime: '2026-05-01T11:00:00Z' },
        privateProperties: { topmark: 'session' },
      });
      await calendar.createEvent(b, {
        summary: 'B',
        start: { dateTime: '2026-05-01T11:00:00Z' },
        end: { dateTime: '2026-05-01T12:00:00Z' },
      });
      await calendar.createEvent(c, {
        summary: 'C',
        start: { date: '2026-05-02' },
        end: { date: '2026-05-03' },
        privateProperties: { topmark: 'session' },
      });
      const window = { from: '2026-05-01T10:00:00Z', to: '2026-05-03T00:00:00Z' };
      expect((await calendar.listEvents(window)).map((e) => e.summary)).toEqual(['A', 'B', 'C']);
      expect(
        (await calendar.listEvents({ ...window, privateProperty: { key: 'topmark', value: 'session' } })).map((e) => e.summary),
      ).toEqual(['A', 'C']);
      expect((await calendar.listEvents({ from: '2026-05-01T11:00:00Z', to: '2026-05-01T11:30:00Z' })).map((e) => e.summary)).toEqual([
        'B',
      ]);
      expect((await calendar.getEvent(c))?.start).toEqual({ date: '2026-05-02' });
    });

    it('answers busy time: opaque events and occurrences, clipped and merged; free (transparent) and deleted events are not busy', async () => {
      const { calendar } = await tutor();
      const ids = [id(), id(), id(), id(), id()];
      await calendar.createEvent(ids[0]!, {
        summary: 'Hours',
        start: { dateTime: '2026-06-01T09:00:00', timeZone: NY },
        end: { dateTime: '2026-06-01T17:00:00', timeZone: NY },
        recurrence: ['RRULE:FREQ=DAILY'],
        transparency: 'transparent',
      });
      await calendar.createEvent(ids[1]!, {
        summary: 'Gym',
        start: { dateTime: '2026-06-01T07:00:00', timeZone: NY },
        end: { dateTime: '2026-06-01T08:00:00', timeZone: NY },
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,TU'],
      });
      await calendar.createEvent(ids[2]!, {
        summary: 'Dentist',
        start: { dateTime: '2026-06-01T12:15:00Z' },
        end: { dateTime: '2026-06-01T13:00:00Z' },
      });
      await calendar.createEvent(ids[3]!, {
        summary: 'Lunch',
        start: { dateTime: '2026-06-01T12:30:00Z' },
        end: { dateTime: '2026-06-01T14:00:00Z' },
      });
      await calendar.createEvent(ids[4]!, {
        summary: 'Cancelled',
        start: { dateTime: '2026-06-01T16:00:00Z' },
        end: { dateTime: '2026-06-01T17:00:00Z' },
      });
      await calendar.deleteEvent(ids[4]!);
      expect(await calendar.freeBusy({ from: '2026-06-01T11:30:00Z', to: '2026-06-03T00:00:00Z' })).toEqual([
        { start: '2026-06-01T11:30:00Z', end: '2026-06-01T12:00:00Z' }, // Gym, clipped to the window
        { start: '2026-06-01T12:15:00Z', end: '2026-06-01T14:00:00Z' }, // Dentist and Lunch, overlapping
        { start: '2026-06-02T11:00:00Z', end: '2026-06-02T12:00:00Z' }, // Gym on Tuesday
      ]);
    });

    it('keeps each tutor’s calendar to themselves', async () => {
      const one = await tutor();
      const two = await tutor();
      const eventId = id();
      await one.calendar.createEvent(eventId, {
        summary: 'Mine',
        start: { dateTime: '2026-07-01T09:00:00Z' },
        end: { dateTime: '2026-07-01T10:00:00Z' },
      });
      expect(await two.calendar.getEvent(eventId)).toBeNull();
      expect(await two.calendar.listEvents({ from: '2026-07-01T00:00:00Z', to: '2026-07-02T00:00:00Z' })).toEqual([]);
      // The same id is free in another calendar.
      await two.calendar.createEvent(eventId, {
        summary: 'Theirs',
        start: { dateTime: '2026-07-01T09:00:00Z' },
        end: { dateTime: '2026-07-01T10:00:00Z' },
      });
      expect((await one.calendar.getEvent(eventId))?.summary).toBe('Mine');
    });

    it('reports a revoked grant as invalid_grant, in the status and from every call', async () => {
      const { calendar, ownerKey, target } = await tutor();
      await calendar.listEvents({ from: '2026-07-01T00:00:00Z', to: '2026-07-02T00:00:00Z' });
      await harness.revoke(ownerKey);
      // The calendar already in use, and one built afresh from the same (now revoked) grant.
      const fresh = harness.port.calendar(target);
      for (const c of [calendar, fresh]) {
        expect(await c.status()).toMatchObject({ accessible: false, isConnected: true, reason: 'invalid_grant' });
        const error = await failure(c.listEvents({ from: '2026-07-01T00:00:00Z', to: '2026-07-02T00:00:00Z' }));
        expect(error).toMatchObject({ name: 'CalendarError', reason: 'invalid_grant', retryable: false, needsReauthorisation: true });
      }
    });
  });
}
