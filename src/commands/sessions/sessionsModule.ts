import { Temporal } from 'temporal-polyfill';
import { CalendarError, type TutorCalendar } from '../../adapters/calendar/calendarPort.ts';
import type { Clock } from '../../adapters/clock/clock.ts';
import type { Sql } from '../../adapters/db/db.ts';
import type { EventStore, Position } from '../../adapters/eventstore/eventStore.ts';
import { DEFAULT_TIMEZONE } from '../../domain/accounts/accountPolicy.ts';
import { assertTimeZone } from '../../domain/calendar/availability.ts';
import { hoursAndBusyOf } from '../../domain/calendar/calendarHours.ts';
import { COURSE_NOT_FOUND } from '../../domain/courses/courseDecider.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import { InvalidFieldError } from '../../domain/kit/domainError.ts';
import { supportedDayOf } from '../../domain/kit/supportedDates.ts';
import { knownTimeZoneOf } from '../../domain/kit/timeZones.ts';
import type { AdminSessionListFilter } from '../../domain/sessions/adminSessionApi.ts';
import { bookingTimes, dayRange, localInstant } from '../../domain/sessions/bookingGrid.ts';
import { freeSlots, mayHoldSlots, rangeNeededFor } from '../../domain/sessions/freeSlots.ts';
import type { CreditPolicy } from '../../domain/sessions/session.ts';
import { SESSION_MINUTES } from '../../domain/sessions/session.ts';
import { DATE_FORMAT, NEW_DATE_FORMAT, START_NOT_NEW_DATE } from '../../domain/sessions/sessionApi.ts';
import { SESSION_NOT_FOUND } from '../../domain/sessions/sessionDecider.ts';
import {
  CALENDAR_NOT_CONNECTED,
  CALENDAR_UNAVAILABLE,
  NO_AVAILABILITY_SET,
  SESSION_LENGTH,
} from '../../domain/sessions/sessionMessages.ts';
import { TUTOR_NOT_FOUND } from '../../domain/tutors/tutorDecider.ts';
import { findStudent } from '../../projections/accounts/queries.ts';
import {
  accountTimeZone,
  bookingStudent,
  courseOfCalendarBooking,
  heldHours,
  listSessionsForAdmin,
  listStudentSessions,
  listTutorSessions,
} from '../../projections/sessions/queries.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { bookSession } from './booking.ts';
import { CalendarSnapshots } from './calendarSnapshots.ts';
import type { CourseFacts, CourseLedger, SessionPorts, TutorFacts } from './ports.ts';
import { sessionHandlers } from './sessionHandlers.ts';
import { cancelSession, completeSession, rescheduleSession } from './sessionLifecycle.ts';
import { sessionsCalendar } from './sessionsCalendar.ts';

/** Spec part 2 §9: the booking grid's times are New York times. */
const BOOKING_GRID_ZONE = 'America/New_York';
const DAY_MS = 86_400_000;

/**
 * What the sessions feature needs, given by the composition root (system.ts): the store and the
 * read models, the clock, and what other features own — the course ledger, the tutor's facts and
 * the tutor's calendar (commands of one feature never import another's).
 */
export interface SessionsModuleDeps {
  sql: Sql;
  store: EventStore;
  clock: Clock;
  courses: CourseLedger;
  tutor(tutorId: string): Promise<TutorFacts>;
  /** The tutor's calendar as the tutors feature opens it (its target, credentials and access-lost record). */
  tutorCalendar(tutorId: string): Promise<TutorCalendar>;
  /** The tutor calendar's shared revision: a snapshot is used only at the revision it was taken at. */
  calendarRevision(tutorId: string): Promise<number>;
  /** The site's public URL (a calendar feed's link) and the mail sender (its events' organiser). */
  publicUrl: string;
  mailFrom: string;
}

/** The student a booking is for, as the route needs it to apply the account-holder rule. */
export interface BookingCourse {
  courseId: string;
  studentId: string;
  /** The course as its stream said when it was read for the permission check: the booking's own checks reuse it. */
  course: CourseFacts;
  /** The student's account holders and the facts the session records; null for an unknown (or erased) student. */
  student: { userId: string; parentId: string | null; timezone: string | null; subjectName: string | null } | null;
}

/** A calendar failure in words the booking dialog can show. */
function calendarRefusal(error: unknown): unknown {
  if (!(error instanceof CalendarError)) return error;
  return error.retryable ? new DomainError(CALENDAR_UNAVAILABLE, 'conflict') : new DomainError(CALENDAR_NOT_CONNECTED, 'unprocessable');
}

/** A zone read from the store (an account's): the default when it is missing or no longer known. */
function zoneOrDefault(zone: string | null | undefined): string {
  if (!zone) return DEFAULT_TIMEZONE;
  try {
    return assertTimeZone(zone);
  } catch {
    return DEFAULT_TIMEZONE;
  }
}

/** The slot's instant when it is `newDate` in `zone` (either hour of a repeated one); a 400 naming `start` otherwise. */
function chosenInstant(start: string, newDate: string, zone: string): Temporal.Instant {
  const instant = Temporal.Instant.from(start);
  const wall = instant.toZonedDateTimeISO(zone).toPlainDateTime().toString({ smallestUnit: 'minute' });
  if (wall !== newDate) throw new InvalidFieldError('start', START_NOT_NEW_DATE);
  return instant;
}

/**
 * The sessions feature's use cases and queries (spec part 2 §7 "Sessions"), built once by
 * system.ts: a tutor's free hours, booking, moving, cancelling and completing a session, and the
 * lists the answers read. Bookings decide on streams (the tutor's schedule, the course's ledger);
 * the lists read the `sessions` read model. Who may do what is the routes' part (the role config
 * and the account-holder rule); every write answers the position its read-your-writes waits for.
 */
export function sessionsModule(deps: SessionsModuleDeps) {
  const { sql, store, clock, courses } = deps;
  const handlers = sessionHandlers(store);
  // The hours and the busy time from one listing of the tutor's calendar (series expanded): the
  // "Topmark Hours" instances are the hours, every other event that is not free is busy.
  const snapshots = new CalendarSnapshots(
    async (tutorId, from, to) => {
      const [calendar, tutor] = await Promise.all([deps.tutorCalendar(tutorId), deps.tutor(tutorId)]);
      return hoursAndBusyOf(await calendar.listEvents({ from, to, expand: true }), tutor.timeZone ?? DEFAULT_TIMEZONE);
    },
    deps.calendarRevision,
    // A revoked grant or a lost share withholds the tutor's slots until it is mended: never guessed from an older picture.
    { transient: (error) => error instanceof CalendarError && error.retryable },
  );
  const ports: SessionPorts = {
    courses,
    tutor: deps.tutor,
    calendarTime: (tutorId, from, to) =>
      snapshots.time(tutorId, from, to).catch((error: unknown) => {
        throw calendarRefusal(error);
      }),
  };
  /** The write's position, or the store's head when it appended nothing (a retried request). */
  const positionOf = async (position: Position | null): Promise<Position> => position ?? (await store.committedPosition());

  const existingTutor = async (tutorId: string) => {
    const tutor = await deps.tutor(tutorId);
    if (!tutor.exists) throw new DomainError(TUTOR_NOT_FOUND, 'not_found');
    return tutor;
  };

  /** Whether the tutor's calendar holds any "Topmark Hours" in the bookable window (else: "No Availability Set"). */
  const hasHours = async (tutorId: string) => {
    const now = clock.now().getTime();
    const { hours } = await ports.calendarTime(tutorId, new Date(now).toISOString(), new Date(now + 31 * DAY_MS).toISOString());
    return hours.length > 0;
  };

  /** The tutor's free slots starting on `day` in `zone` (past hours and days beyond 30 never): the one slot engine. */
  const slotsOn = async (tutorId: string, day: string, zone: string, excludeSessionId: string | null = null) => {
    const tutor = await existingTutor(tutorId);
    const range = dayRange(supportedDayOf(day, 'date', DATE_FORMAT), zone);
    const now = clock.now();
    // A past day or one beyond the booking window holds no slot: its calendar is never read.
    if (!mayHoldSlots(range.from, range.to, now)) return [];
    // The day's last slots may run into the next day: read what overlaps them too.
    const needed = rangeNeededFor(range.from, range.to);
    const [time, booked] = await Promise.all([
      ports.calendarTime(tutorId, needed.start, needed.end),
      heldHours(sql, tutorId, { from: needed.start, to: needed.end }, excludeSessionId),
    ]);
    return freeSlots({ ...time, booked, now, timeZone: tutor.timeZone ?? DEFAULT_TIMEZONE, ...range });
  };

  return {
    /** The calendar side: the tutor's sync card, the invitation sent again, the personal calendar feed. */
    calendar: sessionsCalendar({
      sql,
      store,
      clock,
      tutorCalendar: deps.tutorCalendar,
      publicUrl: deps.publicUrl,
      mailFrom: deps.mailFrom,
    }),

    /** The tutor's facts; a 404 for an unknown tutor. */
    existingTutor,

    /** The zone given (a 400 naming `timezone` when unknown, never replaced), else the account's, else the default. */
    async zoneFor(userId: string, given: string | null | undefined): Promise<string> {
      if (given === undefined || given === null) return zoneOrDefault(await accountTimeZone(sql, userId));
      return knownTimeZoneOf(given, 'timezone');
    },

    /** The booking grid (spec part 2 §9): the tutor's free hours on a New York day as "HH:mm" with instants and labels. */
    async bookingGrid(tutorId: string, day: string) {
      await existingTutor(tutorId);
      if (!(await hasHours(tutorId))) throw new DomainError(NO_AVAILABILITY_SET, 'unprocessable');
      return bookingTimes(await slotsOn(tutorId, day, BOOKING_GRID_ZONE), day, BOOKING_GRID_ZONE);
    },

    /** The tutor's free slots starting on `day` in `zone`; the session being moved does not block its own hour. */
    freeSlots: slotsOn,

    /** The course to book and its student (404 for an unknown course or one without a student). */
    async courseToBook(courseId: string): Promise<BookingCourse> {
      const course = await courses.course(courseId);
      if (!course.exists || !course.studentId) throw new DomainError(COURSE_NOT_FOUND, 'not_found');
      return { courseId, studentId: course.studentId, course, student: await bookingStudent(sql, course.studentId, course.subjectId) };
    },

    /** The course a calendar booking names (its purchase, or a course of the named subject); 404 when none. */
    async courseOfCalendarBooking(query: { studentId: string; purchaseId: string; subject: string | null }): Promise<string> {
      const courseId = await courseOfCalendarBooking(sql, query);
      if (!courseId) throw new DomainError(COURSE_NOT_FOUND, 'not_found');
      return courseId;
    },

    /** A New York date, start and end time as the session's start; a session is one hour long. */
    gridHourStart(date: string, startTime: string, endTime: string): string {
      const start = localInstant(date, startTime, BOOKING_GRID_ZONE);
      const end = localInstant(date, endTime, BOOKING_GRID_ZONE);
      if (!start || !end) throw new InvalidFieldError('date', DATE_FORMAT);
      if (end.epochMilliseconds - start.epochMilliseconds !== SESSION_MINUTES * 60_000) throw new DomainError(SESSION_LENGTH, 'invalid');
      return start.toString();
    },

    /**
     * Books a session on the course (the caller may act for its student: the route checked):
     * claims the tutor's hour, reserves a credit, records the session.
     */
    async book(
      booking: BookingCourse & { student: NonNullable<BookingCourse['student']> },
      input: { tutorId: string; start: string; notes: string | null | undefined },
      ctx: CommandContext,
    ) {
      const { student, course } = booking;
      // The credit reservation still decides on the course stream with its expected revision.
      const bookingPorts: SessionPorts = {
        ...ports,
        courses: { ...courses, course: async (courseId) => (courseId === booking.courseId ? course : courses.course(courseId)) },
      };
      const { position, sessionId } = await bookSession(
        handlers,
        bookingPorts,
        {
          tutorId: input.tutorId,
          courseId: booking.courseId,
          studentId: booking.studentId,
          studentUserId: student.userId,
          studentTimeZone: zoneOrDefault(student.timezone),
          subjectName: student.subjectName ?? 'Tutoring',
          start: input.start,
          notes: input.notes,
        },
        ctx,
      );
      return { position: await positionOf(position), sessionId };
    },

    /** The session as its stream says (a 404 when it was never booked): the parties the routes check. */
    async bookedSession(sessionId: string) {
      const booked = (await handlers.sessions.load(sessionId)).booked;
      if (!booked) throw new DomainError(SESSION_NOT_FOUND, 'not_found');
      return booked;
    },

    /** The student's account holders (null for an unknown or erased student), for the account-holder rule. */
    studentHolders: (studentId: string) => findStudent(sql, studentId),

    /** Cancels a session (spec part 1 §9), by a party or an admin on anyone's behalf; the credit comes back or is used. */
    cancel(sessionId: string, input: { reason: string; onBehalf?: { creditPolicy: CreditPolicy } }, ctx: CommandContext) {
      return cancelSession(handlers, ports, { sessionId, ...input }, ctx);
    },

    /** The tutor marks the session completed: the notes become its report, the credit is used. */
    complete(sessionId: string, notes: string, ctx: CommandContext) {
      return completeSession(handlers, ports, { sessionId, notes }, ctx);
    },

    /**
     * Moves a session to `newDate` (a local time in `zone`); `start` picks one hour of a repeated
     * one (the fall-back night) and must be that local time.
     */
    async reschedule(sessionId: string, input: { newDate: string; start: string | undefined; zone: string }, ctx: CommandContext) {
      const [day = '', time = ''] = input.newDate.split('T');
      const local = localInstant(supportedDayOf(day, 'newDate', NEW_DATE_FORMAT), time, input.zone);
      if (!local) throw new InvalidFieldError('newDate', NEW_DATE_FORMAT);
      const start = input.start === undefined ? local : chosenInstant(input.start, input.newDate, input.zone);
      const { position } = await rescheduleSession(handlers, ports, { sessionId, start: start.toString(), timeZone: input.zone }, ctx);
      return { position: await positionOf(position) };
    },

    /** The console's page of sessions (every status), searched, filtered, sorted and paged. */
    adminSessions: (query: AdminSessionListFilter) => listSessionsForAdmin(sql, query),

    /** The tutor's sessions, oldest first. */
    tutorSessions: (tutorId: string) => listTutorSessions(sql, tutorId),

    /** One session as its tutor's list shows it (after the write's read-your-writes); 404 when it is not there. */
    async tutorSession(tutorId: string, sessionId: string) {
      const session = (await listTutorSessions(sql, tutorId)).find((s) => s.id === sessionId);
      if (!session) throw new DomainError(SESSION_NOT_FOUND, 'not_found');
      return session;
    },

    /** One session as its student's list shows it (after the booking's read-your-writes); 404 when it is not there. */
    async studentSession(studentId: string, sessionId: string) {
      const session = (await listStudentSessions(sql, studentId)).find((s) => s.id === sessionId);
      if (!session) throw new DomainError(SESSION_NOT_FOUND, 'not_found');
      return session;
    },
  };
}

export type SessionsModule = ReturnType<typeof sessionsModule>;
