import { createHash } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import { basicUtc, occurrencesBetween, UnsupportedRecurrenceError } from '../../../domain/calendar/recurrence.ts';
import type { Sql, TransactionSql } from '../../db/db.ts';
import {
  type Attendee,
  assertEventId,
  type BusyInterval,
  CalendarError,
  type CalendarEvent,
  type CalendarPort,
  type CalendarStatus,
  type CalendarTarget,
  type EventInput,
  type EventTime,
  type ListOptions,
  splitInstanceId,
  type TutorCalendar,
} from '../calendarPort.ts';
import { checkTimes, instantOf, isAllDay, isValidZone, presentTime, wallClockOf, withOffset, zoneOf } from '../calendarTime.ts';

/**
 * The sandbox calendar (DESIGN.md "External services and the embedded default"): a complete
 * calendar kept in PostgreSQL (migration 0010), one per tutor, used when no Google credentials are
 * configured. It behaves as the Google adapter does (same contract suite): single and recurring
 * events (RRULE FREQ=DAILY|WEEKLY with BYDAY, INTERVAL, COUNT/UNTIL, and EXDATE), instances
 * expanded in the event's zone, occurrences changed or deleted one by one, free/busy, idempotent
 * creation by id, and Meet-style links that are plainly not Google's.
 *
 * One occurrence changed or deleted becomes an exception, as at Google: a row under the
 * occurrence's id (`<series>_<UTC start>`) pointing at its series, cancelled when deleted. The
 * series' own lines are left as the caller wrote them, and an occurrence with an exception is
 * never expanded again, whatever the series' lines later say (a client replacing them with lines
 * of its own does not bring a deleted occurrence back).
 *
 * Credentials are not checked: each calendar has its own access state, which a developer can
 * switch (`setAccess`) to see every calendar banner and failure.
 */

export const SANDBOX_SERVICE_ACCOUNT = 'calendar@sandbox.topmark.invalid';
/** Sandbox meeting links live under a reserved, never-resolving domain: they cannot reach a real meeting. */
export const SANDBOX_MEET_ORIGIN = 'https://meet.sandbox.topmark.invalid';
export type SandboxAccess = 'granted' | 'read_only' | 'revoked' | 'disconnected';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** A Meet-shaped link (`xxx-xxxx-xxx`), the same for the same conference request id. */
export function sandboxMeetLink(requestId: string): string {
  const bytes = createHash('sha256').update(`sandbox-meet:${requestId}`).digest();
  const code = [...bytes.subarray(0, 10)].map((b) => LETTERS[b % 26]).join('');
  return `${SANDBOX_MEET_ORIGIN}/${code.slice(0, 3)}-${code.slice(3, 7)}-${code.slice(7, 10)}`;
}

interface CalendarRow {
  owner_id: string;
  email: string;
  time_zone: string;
  access: SandboxAccess;
}

interface EventRow {
  event_id: string;
  /** Series read for listing: the ids of its exceptions (changed or deleted occurrences). */
  exceptions?: string[] | null;
  status: CalendarEvent['status'];
  summary: string;
  description: string | null;
  start_time: EventTime;
  end_time: EventTime;
  recurrence: string[] | null;
  recurring_event_id: string | null;
  transparency: CalendarEvent['transparency'];
  attendees: Attendee[];
  conference_request_id: string | null;
  meeting_link: string | null;
  private_properties: Record<string, string>;
}

export interface SandboxCalendarOptions {
  /** The zone of a newly made calendar (default America/New_York, the spec's default). */
  defaultTimeZone?: string;
}

export class SandboxCalendar implements CalendarPort {
  readonly kind = 'sandbox' as const;
  readonly serviceAccountEmail = SANDBOX_SERVICE_ACCOUNT;

  constructor(
    private readonly sql: Sql,
    private readonly options: SandboxCalendarOptions = {},
  ) {}

  calendar(target: CalendarTarget): TutorCalendar {
    return new SandboxTutorCalendar(this.sql, target, this.options.defaultTimeZone ?? 'America/New_York');
  }

  /** Dev mode: pretend the tutor's grant was revoked, the calendar shared read-only, or never connected. */
  async setAccess(ownerId: string, access: SandboxAccess): Promise<void> {
    await this.ensure(ownerId);
    await this.sql`UPDATE sandbox_calendars SET access = ${access} WHERE owner_id = ${ownerId}`;
  }

  async setTimeZone(ownerId: string, timeZone: string): Promise<void> {
    if (!isValidZone(timeZone)) throw new CalendarError('invalid', `Invalid time zone: ${timeZone}`);
    await this.ensure(ownerId);
    await this.sql`UPDATE sandbox_calendars SET time_zone = ${timeZone} WHERE owner_id = ${ownerId}`;
  }

  private ensure(ownerId: string) {
    return ensureCalendar(this.sql, ownerId, 'primary', this.options.defaultTimeZone ?? 'America/New_York');
  }
}

async function ensureCalendar(sql: Sql, ownerId: string, calendarId: string, timeZone: string): Promise<CalendarRow> {
  const email = calendarId.includes('@') ? calendarId.toLowerCase() : `${ownerId.toLowerCase()}@calendar.sandbox.topmark.invalid`;
  // One round trip: the row this statement created, else the one already there.
  const [row] = await sql<CalendarRow[]>`
    WITH created AS (
      INSERT INTO sandbox_calendars (owner_id, email, time_zone) VALUES (${ownerId}, ${email}, ${timeZone})
      ON CONFLICT DO NOTHING RETURNING owner_id, email, time_zone, access)
    SELECT * FROM created
    UNION ALL
    SELECT owner_id, email, time_zone, access FROM sandbox_calendars WHERE owner_id = ${ownerId}
    LIMIT 1`;
  if (row) return row;
  // Created by a concurrent first use after this statement's snapshot: read it now.
  const [existing] = await sql<CalendarRow[]>`SELECT owner_id, email, time_zone, access FROM sandbox_calendars WHERE owner_id = ${ownerId}`;
  return existing as CalendarRow;
}

const SELECT_EVENT =
  'event_id, status, summary, description, start_time, end_time, recurrence, recurring_event_id, transparency, attendees, conference_request_id, meeting_link, private_properties';

const cmp = Temporal.Instant.compare;

/** Invalid recurrence (or one the sandbox cannot expand) is the caller's error, as at Google. */
function recurrenceChecked<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof UnsupportedRecurrenceError) throw new CalendarError('invalid', error.message, { cause: error });
    throw error;
  }
}

class SandboxTutorCalendar implements TutorCalendar {
  /** Every change to a sandbox calendar goes through Topmark (and raises its revision): nothing to watch. */
  readonly watching = null;

  constructor(
    private readonly sql: Sql,
    private readonly target: CalendarTarget,
    private readonly defaultTimeZone: string,
  ) {}

  private get owner() {
    return this.target.ownerId;
  }

  /** The calendar, created on first use; refuses like Google when access is gone. */
  private async open(mode: 'read' | 'write'): Promise<CalendarRow> {
    const row = await ensureCalendar(this.sql, this.owner, this.target.calendarId, this.defaultTimeZone);
    if (row.access === 'disconnected') throw new CalendarError('not_connected', 'No calendar is connected for this tutor');
    if (row.access === 'revoked') throw new CalendarError('invalid_grant', 'invalid_grant: Token has been expired or revoked.');
    if (row.access === 'read_only' && mode === 'write')
      throw new CalendarError('forbidden', 'You need to have writer access to this calendar.');
    return row;
  }

  async status(): Promise<CalendarStatus> {
    const row = await ensureCalendar(this.sql, this.owner, this.target.calendarId, this.defaultTimeZone);
    const base = { email: row.email, isConnected: row.access !== 'disconnected', timeZone: row.time_zone };
    switch (row.access) {
      case 'granted':
        return { ...base, accessible: true, reason: null };
      case 'read_only':
        return { ...base, accessible: false, reason: 'forbidden' };
      case 'revoked':
        return { ...base, accessible: false, reason: 'invalid_grant' };
      default:
        return { ...base, accessible: false, email: null, timeZone: null, reason: 'not_connected' };
    }
  }

  async listEvents(options: ListOptions): Promise<CalendarEvent[]> {
    const calendar = await this.open('read');
    const from = Temporal.Instant.from(options.from);
    const to = Temporal.Instant.from(options.to);
    const rows = await this.rowsBetween(from, to, options.privateProperty);
    const zone = calendar.time_zone;
    const listed: { at: Temporal.Instant; event: CalendarEvent }[] = [];
    for (const row of rows) {
      if (!row.recurrence) {
        const start = instantOf(row.start_time, zone);
        if (cmp(start, to) < 0 && cmp(instantOf(row.end_time, zone), from) > 0) listed.push({ at: start, event: toEvent(row, zone) });
        continue;
      }
      const occurrences = this.occurrences(row, zone, from, to);
      if (options.expand === false) {
        if (occurrences.length > 0) listed.push({ at: instantOf(row.start_time, zone), event: toEvent(row, zone) });
      } else {
        for (const o of occurrences) {
          const instance = instanceEvent(row, zone, o);
          if (!row.exceptions?.includes(instance.id)) listed.push({ at: o.start, event: instance });
        }
      }
    }
    return listed.sort((a, b) => cmp(a.at, b.at) || a.event.id.localeCompare(b.event.id)).map((l) => l.event);
  }

  async freeBusy(window: { from: string; to: string }): Promise<BusyInterval[]> {
    const calendar = await this.open('read');
    const from = Temporal.Instant.from(window.from);
    const to = Temporal.Instant.from(window.to);
    const zone = calendar.time_zone;
    const spans: { start: Temporal.Instant; end: Temporal.Instant }[] = [];
    for (const row of await this.rowsBetween(from, to)) {
      if (row.transparency === 'transparent') continue;
      const occurrences = row.recurrence
        ? this.occurrences(row, zone, from, to).filter((o) => !row.exceptions?.includes(instanceEvent(row, zone, o).id))
        : [{ start: instantOf(row.start_time, zone), end: instantOf(row.end_time, zone) }];
      for (const o of occurrences) {
        const start = cmp(o.start, from) > 0 ? o.start : from;
        const end = cmp(o.end, to) < 0 ? o.end : to;
        if (cmp(end, start) > 0) spans.push({ start, end });
      }
    }
    spans.sort((a, b) => cmp(a.start, b.start));
    const merged: typeof spans = [];
    for (const s of spans) {
      const last = merged.at(-1);
      if (last && cmp(s.start, last.end) <= 0) last.end = cmp(s.end, last.end) > 0 ? s.end : last.end;
      else merged.push({ ...s });
    }
    return merged.map((s) => ({ start: s.start.toString(), end: s.end.toString() }));
  }

  async getEvent(id: string): Promise<CalendarEvent | null> {
    const calendar = await this.open('read');
    const row = await this.row(this.sql, id);
    if (row) return row.status === 'cancelled' ? null : toEvent(row, calendar.time_zone);
    const instance = await this.instance(this.sql, id, calendar.time_zone);
    return instance ? instanceEvent(instance.series, calendar.time_zone, instance.occurrence) : null;
  }

  async createEvent(id: string, input: EventInput): Promise<CalendarEvent> {
    assertEventId(id);
    const calendar = await this.open('write');
    const row = newRow(id, input);
    const inserted = await this.write(this.sql, row, calendar.time_zone, 'insert');
    if (inserted) return toEvent(inserted, calendar.time_zone);
    // A retry (or a concurrent twin): the event that is there.
    const existing = await this.row(this.sql, id);
    if (!existing) throw new CalendarError('unavailable', `Event ${id} could not be created`);
    if (existing.status === 'cancelled') throw new CalendarError('conflict', `Event ${id} was deleted; create it under a new id`);
    return toEvent(existing, calendar.time_zone);
  }

  async updateEvent(id: string, patch: Partial<EventInput>): Promise<CalendarEvent> {
    const calendar = await this.open('write');
    const zone = calendar.time_zone;
    return this.sql.begin(async (tx) => {
      await this.lockSeriesOf(tx, id);
      let row = await this.row(tx, id, true);
      if (!row) {
        // Changing one occurrence: it becomes an exception of its series (which no longer expands it).
        const instance = await this.instance(tx, id, zone, true);
        if (!instance) throw new CalendarError('not_found', `Not Found: event ${id}`);
        row = exceptionRow(instance.series, zone, instance.occurrence);
      } else if (row.status === 'cancelled') {
        throw new CalendarError('not_found', `Not Found: event ${id} was deleted`);
      }
      const next = applyPatch(row, patch);
      const written = await this.write(tx, next, zone, 'upsert');
      return toEvent(written!, zone);
    });
  }

  async deleteEvent(id: string): Promise<void> {
    const calendar = await this.open('write');
    await this.sql.begin(async (tx) => {
      await this.lockSeriesOf(tx, id);
      const row = await this.row(tx, id, true);
      if (row) {
        // A deleted event is never read again (only its id, which a retried create must meet): what
        // it said and whom it invited go with it, so that no one's name or address stays behind.
        await tx`UPDATE sandbox_calendar_events
                 SET status = 'cancelled', summary = '', description = NULL, attendees = '[]'::jsonb, updated_at = now()
                 WHERE owner_id = ${this.owner} AND (event_id = ${id} OR recurring_event_id = ${id})`;
        return;
      }
      // Deleting one occurrence: a cancelled exception under its id.
      const instance = await this.instance(tx, id, calendar.time_zone, true);
      if (instance) {
        const cancelled = { ...exceptionRow(instance.series, calendar.time_zone, instance.occurrence), status: 'cancelled' as const };
        await this.write(tx, cancelled, calendar.time_zone, 'upsert');
      }
    });
  }

  // -------------------------------------------------------------------------------------------

  private occurrences(row: EventRow, zone: string, from: Temporal.Instant, to: Temporal.Instant) {
    const seriesZone = zoneOf(row.start_time, zone);
    return recurrenceChecked(() =>
      occurrencesBetween(
        {
          start: wallClockOf(row.start_time, zone),
          end: wallClockOf(row.end_time, zone),
          timeZone: seriesZone,
          recurrence: row.recurrence,
        },
        from,
        to,
      ),
    );
  }

  private async rowsBetween(from: Temporal.Instant, to: Temporal.Instant, property?: { key: string; value: string }): Promise<EventRow[]> {
    const filter = property ? this.sql`AND private_properties @> ${this.sql.json({ [property.key]: property.value })}` : this.sql``;
    // A day of margin: all-day events were placed in the calendar's zone when written, and it may have changed
    // since. The exact test happens in memory, in the current zone.
    // A series comes with its exceptions' ids: "<series>_<start>", a range of the primary key ("C" collation; chr(96) follows '_').
    return this.sql<EventRow[]>`
      SELECT ${this.sql.unsafe(SELECT_EVENT)},
             CASE WHEN e.recurrence IS NULL THEN NULL ELSE ARRAY(
               SELECT x.event_id FROM sandbox_calendar_events x
               WHERE x.owner_id = e.owner_id AND x.event_id > e.event_id || '_' AND x.event_id < e.event_id || chr(96)
             ) END AS exceptions
      FROM sandbox_calendar_events e
      WHERE owner_id = ${this.owner} AND status <> 'cancelled'
        AND starts_at < ${to.add({ hours: 26 }).toString()}
        AND (recurrence IS NOT NULL OR ends_at > ${from.subtract({ hours: 26 }).toString()})
        ${filter}`;
  }

  private async row(sql: Sql | TransactionSql, id: string, lock = false): Promise<EventRow | null> {
    const [row] = await sql<EventRow[]>`
      SELECT ${sql.unsafe(SELECT_EVENT)} FROM sandbox_calendar_events
      WHERE owner_id = ${this.owner} AND event_id = ${id} ${lock ? sql`FOR UPDATE` : sql``}`;
    return row ?? null;
  }

  /** The occurrence an instance id names, when its series has it (and it was neither changed nor deleted). */
  private async instance(sql: Sql | TransactionSql, id: string, zone: string, lock = false) {
    const parts = splitInstanceId(id);
    if (!parts) return null;
    const series = await this.row(sql, parts.seriesId, lock);
    if (!series?.recurrence || series.status === 'cancelled') return null;
    const at = originalStartInstant(parts.originalStart, zone);
    const occurrence = this.occurrences(series, zone, at, at.add({ seconds: 1 })).find((o) => cmp(o.start, at) === 0);
    return occurrence ? { series, occurrence } : null;
  }

  /**
   * Changes to one occurrence lock its series first (then the occurrence's own row), so two
   * changes of the same occurrence, or a change racing the series' deletion, take turns.
   */
  private async lockSeriesOf(tx: TransactionSql, id: string) {
    const parts = splitInstanceId(id);
    if (parts) await this.row(tx, parts.seriesId, true);
  }

  private async write(sql: Sql | TransactionSql, row: EventRow, zone: string, mode: 'insert' | 'upsert'): Promise<EventRow | null> {
    const recurrence = row.recurrence && row.recurrence.length > 0 ? row.recurrence : null;
    checkTimes(row.start_time, row.end_time, recurrence !== null, zone);
    if (recurrence) {
      // Refuse now what could not be expanded later.
      const first = instantOf(row.start_time, zone);
      this.occurrences({ ...row, recurrence }, zone, first, first.add({ hours: 1 }));
    }
    const values = {
      owner_id: this.owner,
      event_id: row.event_id,
      status: row.status,
      summary: row.summary,
      description: row.description,
      start_time: sql.json(row.start_time as never),
      end_time: sql.json(row.end_time as never),
      starts_at: instantOf(row.start_time, zone).toString(),
      ends_at: instantOf(row.end_time, zone).toString(),
      recurrence: recurrence ? sql.json(recurrence) : null,
      recurring_event_id: row.recurring_event_id,
      transparency: row.transparency,
      attendees: sql.json(row.attendees as never),
      conference_request_id: row.conference_request_id,
      meeting_link: row.meeting_link,
      private_properties: sql.json(row.private_properties),
    };
    const columns = Object.keys(values) as (keyof typeof values)[];
    const [written] =
      mode === 'insert'
        ? await sql<
            EventRow[]
          >`INSERT INTO sandbox_calendar_events ${sql(values, columns)} ON CONFLICT DO NOTHING RETURNING ${sql.unsafe(SELECT_EVENT)}`
        : await sql<EventRow[]>`
            INSERT INTO sandbox_calendar_events ${sql(values, columns)}
            ON CONFLICT (owner_id, event_id) DO UPDATE SET ${sql(
              values,
              columns.filter((c) => c !== 'owner_id' && c !== 'event_id'),
            )}, updated_at = now()
            RETURNING ${sql.unsafe(SELECT_EVENT)}`;
    return written ?? null;
  }
}

function newRow(id: string, input: EventInput): EventRow {
  return applyPatch(
    {
      event_id: id,
      status: 'confirmed',
      summary: '',
      description: null,
      start_time: input.start,
      end_time: input.end,
      recurrence: null,
      recurring_event_id: null,
      transparency: 'opaque',
      attendees: [],
      conference_request_id: null,
      meeting_link: null,
      private_properties: {},
    },
    input,
  );
}

/** `20260309T130000Z` (a timed series) or `20260309` (an all-day one, midnight in the calendar's zone). */
function originalStartInstant(basic: string, zone: string): Temporal.Instant {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z)?$/.exec(basic)!;
  const [, y, mo, d, h, mi, sec] = m;
  const date = Temporal.PlainDate.from(`${y}-${mo}-${d}`);
  return h === undefined ? date.toZonedDateTime(zone).toInstant() : Temporal.Instant.from(`${y}-${mo}-${d}T${h}:${mi}:${sec}Z`);
}

function applyPatch(row: EventRow, patch: Partial<EventInput>): EventRow {
  const next: EventRow = { ...row };
  if (patch.summary !== undefined) next.summary = patch.summary;
  if (patch.description !== undefined) next.description = patch.description;
  if (patch.start !== undefined) next.start_time = patch.start;
  if (patch.end !== undefined) next.end_time = patch.end;
  if (patch.recurrence !== undefined) next.recurrence = patch.recurrence && patch.recurrence.length > 0 ? patch.recurrence : null;
  if (patch.transparency !== undefined) next.transparency = patch.transparency;
  if (patch.status !== undefined) next.status = patch.status;
  if (patch.attendees !== undefined) next.attendees = patch.attendees.map((a) => ({ responseStatus: 'needsAction', ...a }));
  if (patch.privateProperties !== undefined) next.private_properties = { ...next.private_properties, ...patch.privateProperties };
  // Like Google: the first request for a conference makes it; the same or a later request keeps it.
  if (patch.conference && !next.meeting_link) {
    next.conference_request_id = patch.conference.requestId;
    next.meeting_link = sandboxMeetLink(patch.conference.requestId);
  }
  return next;
}

function toEvent(row: EventRow, zone: string): CalendarEvent {
  return {
    id: row.event_id,
    status: row.status,
    summary: row.summary,
    description: row.description,
    start: presentTime(row.start_time, zone),
    end: presentTime(row.end_time, zone),
    recurrence: row.recurrence,
    recurringEventId: row.recurring_event_id,
    transparency: row.transparency,
    attendees: row.attendees,
    meetingLink: row.meeting_link,
    conference: row.meeting_link ? { requestId: row.conference_request_id, status: 'success' } : null,
    privateProperties: row.private_properties,
    htmlLink: null,
  };
}

/** One occurrence as its own row: an exception of its series, under the occurrence's id. */
function exceptionRow(series: EventRow, zone: string, o: { start: Temporal.Instant; end: Temporal.Instant }): EventRow {
  const occurrence = instanceEvent(series, zone, o);
  const { exceptions: _exceptions, ...fields } = series;
  return {
    ...fields,
    event_id: occurrence.id,
    recurrence: null,
    recurring_event_id: series.event_id,
    start_time: occurrence.start,
    end_time: occurrence.end,
  };
}

function instanceEvent(series: EventRow, zone: string, o: { start: Temporal.Instant; end: Temporal.Instant }): CalendarEvent {
  const allDay = isAllDay(series.start_time);
  const seriesZone = zoneOf(series.start_time, zone);
  const time = (at: Temporal.Instant): EventTime =>
    allDay
      ? { date: at.toZonedDateTimeISO(zone).toPlainDate().toString() }
      : { dateTime: withOffset(at, seriesZone), timeZone: seriesZone };
  const suffix = allDay ? o.start.toZonedDateTimeISO(zone).toPlainDate().toString().replaceAll('-', '') : basicUtc(o.start);
  return {
    ...toEvent(series, zone),
    id: `${series.event_id}_${suffix}`,
    start: time(o.start),
    end: time(o.end),
    recurrence: null,
    recurringEventId: series.event_id,
  };
}
