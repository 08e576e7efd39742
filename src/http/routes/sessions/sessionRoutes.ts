import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { CalendarError } from '../../../adapters/calendar/calendarPort.ts';
import { courseLedger } from '../../../commands/courses/courseLedger.ts';
import type { CommandContext } from '../../../commands/kit/commandContext.ts';
import { bookSession } from '../../../commands/sessions/booking.ts';
import { CalendarSnapshots } from '../../../commands/sessions/calendarSnapshots.ts';
import type { CourseLedger, SessionPorts, TutorFacts } from '../../../commands/sessions/ports.ts';
import { SCHEDULE_ATTEMPTS, sessionHandlers } from '../../../commands/sessions/sessionHandlers.ts';
import { cancelSession, completeSession, rescheduleSession } from '../../../commands/sessions/sessionLifecycle.ts';
import { openTutorCalendar } from '../../../commands/tutors/tutorCalendar.ts';
import { tutorHandlers } from '../../../commands/tutors/tutorHandlers.ts';
import { DEFAULT_TIMEZONE } from '../../../domain/accounts/accountPolicy.ts';
import { assertTimeZone } from '../../../domain/calendar/availability.ts';
import { hoursAndBusyOf } from '../../../domain/calendar/calendarHours.ts';
import { COURSE_NOT_FOUND } from '../../../domain/courses/courseDecider.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import { InvalidFieldError } from '../../../domain/kit/domainError.ts';
import { supportedDayOf } from '../../../domain/kit/supportedDates.ts';
import { knownTimeZoneOf, timeZoneField } from '../../../domain/kit/timeZones.ts';
import { bookingTimes, dayRange, localInstant } from '../../../domain/sessions/bookingGrid.ts';
import { freeSlots, mayHoldSlots, rangeNeededFor } from '../../../domain/sessions/freeSlots.ts';
import { SESSION_MINUTES } from '../../../domain/sessions/session.ts';
import {
  bookingDay,
  bookingSlotSchema,
  bookSessionBody,
  bookWithCalendarBody,
  cancelSessionBody,
  completeSessionBody,
  DATE_FORMAT,
  dayAvailabilitySchema,
  NEW_DATE_FORMAT,
  rescheduleAvailabilitySchema,
  rescheduleSessionBody,
  START_NOT_NEW_DATE,
  studentSessionSchema,
  tutorSessionSchema,
} from '../../../domain/sessions/sessionApi.ts';
import { SESSION_NOT_FOUND } from '../../../domain/sessions/sessionDecider.ts';
import { TUTOR_NOT_FOUND } from '../../../domain/tutors/tutorDecider.ts';
import { findStudent } from '../../../projections/accounts/queries.ts';
import { heldHours, listStudentSessions, listTutorSessions } from '../../../projections/sessions/queries.ts';
import type { System } from '../../../system.ts';
import { FORBIDDEN, type Principal, principalOf } from '../../kit/auth.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { readYourWrites } from '../../kit/readYourWrites.ts';
import { requireStudentAccess, studentAccess } from '../../kit/studentAccess.ts';

/** Spec part 2 §9: the booking grid's times are New York times. */
const BOOKING_GRID_ZONE = 'America/New_York';
export const NOT_YOUR_SESSIONS = 'You can only see your own sessions';
export const ONLY_THE_TUTOR_COMPLETES = 'Only the session’s tutor can complete it';
export const SESSION_LENGTH = 'Sessions last 60 minutes';
export { DATE_FORMAT };
export const CALENDAR_NOT_CONNECTED = 'Calendar Not Connected: this tutor’s calendar is not connected, so no times can be booked yet.';
/** The booking grid of a tutor whose calendar holds no "Topmark Hours" in the bookable window (the dashboard's "No Availability Set", spec part 2 §2). */
export const NO_AVAILABILITY_SET = 'No Availability Set: this tutor has not set their weekly hours yet.';
export const CALENDAR_UNAVAILABLE = 'The tutor’s calendar is not answering. Please try again shortly.';

/** A calendar failure in words the booking dialog can show. */
function calendarRefusal(error: unknown): unknown {
  if (!(error instanceof CalendarError)) return error;
  return error.retryable ? new DomainError(CALENDAR_UNAVAILABLE, 'conflict') : new DomainError(CALENDAR_NOT_CONNECTED, 'unprocessable');
}

const id = z.string().min(1).max(100);
const messageSchema = z.object({ message: z.string() });
/** A refused body names the failing field (the storable-text guard and validation both do). */
const badRequestSchema = z.object({
  message: z.string(),
  field: z.string().optional(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
const bookedSessionSchema = studentSessionSchema.extend({ studentId: z.string() });

/** Who may book: the student or their parent (a view-only login never). */
const bookers = { roles: ['student', 'parent'] } as const;
/** Who may look at a tutor's free hours. */
const slotReaders = { roles: ['student', 'parent', 'student_secondary', 'tutor', 'admin'] } as const;
/** Who may cancel or move a session: its student's account holders, its tutor, an admin. */
const sessionParties = { roles: ['student', 'parent', 'tutor', 'admin'] } as const;
const sessionModels = ['sessions', 'student_courses'] as const;

/** The slot's instant when it is `newDate` in `zone` (either hour of a repeated one); a 400 naming `start` otherwise. */
function chosenInstant(start: string, newDate: string, zone: string): Temporal.Instant {
  const instant = Temporal.Instant.from(start);
  const wall = instant.toZonedDateTimeISO(zone).toPlainDateTime().toString({ smallestUnit: 'minute' });
  if (wall !== newDate) throw new InvalidFieldError('start', START_NOT_NEW_DATE);
  return instant;
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

/**
 * Sessions (spec part 2 §7 "Sessions"): a tutor's free hours, booking, the tutor's sessions, and
 * cancelling, completing and moving a session. Bookings decide on streams (the tutor's schedule,
 * the course's ledger); the lists read the `sessions` read model.
 */
export const sessionRoutes =
  ({ sql, store, calendar, calendarRevisions }: Pick<System, 'sql' | 'store' | 'calendar' | 'calendarRevisions'>): FastifyPluginAsyncZod =>
  async (app) => {
    const handlers = sessionHandlers(store);
    const tutors = tutorHandlers(store);

    // One student's concurrent bookings race on their course's stream: allow as many rounds as the schedule.
    const ledger: CourseLedger = courseLedger(store, { maxAttempts: SCHEDULE_ATTEMPTS });
    // The tutor's stream read to its head on every use (from the process's cached fold, so only
    // what is new is read): a zone change made through any process counts at once.
    const tutorFacts = async (tutorId: string): Promise<TutorFacts> => {
      const state = await tutors.tutors.load(tutorId);
      return { exists: state.exists, timeZone: state.timeZone };
    };
    // The hours and the busy time from one listing of the tutor's calendar (series expanded): the
    // "Topmark Hours" instances are the hours, every other event that is not free is busy.
    const snapshots = new CalendarSnapshots(
      async (tutorId, from, to) => {
        const [opened, tutor] = await Promise.all([openTutorCalendar({ store, calendar }, tutorId), tutorFacts(tutorId)]);
        return hoursAndBusyOf(await opened.calendar.listEvents({ from, to, expand: true }), tutor.timeZone ?? DEFAULT_TIMEZONE);
      },
      (tutorId) => calendarRevisions.of(tutorId),
      // A revoked grant or a lost share withholds the tutor's slots until it is mended: never guessed from an older picture.
      { transient: (error) => error instanceof CalendarError && error.retryable },
    );
    const ports: SessionPorts = {
      courses: ledger,
      tutor: tutorFacts,
      calendarTime: (tutorId, from, to) =>
        snapshots.time(tutorId, from, to).catch((error: unknown) => {
          throw calendarRefusal(error);
        }),
    };

    const existingTutor = async (tutorId: string) => {
      const tutor = await tutorFacts(tutorId);
      if (!tutor.exists) throw new DomainError(TUTOR_NOT_FOUND, 'not_found');
      return tutor;
    };

    /** Whether the tutor's calendar holds any "Topmark Hours" in the bookable window (else: "No Availability Set"). */
    const hasHours = async (tutorId: string) => {
      const now = app.clock.now().getTime();
      const { hours } = await ports.calendarTime(tutorId, new Date(now).toISOString(), new Date(now + 31 * 86_400_000).toISOString());
      return hours.length > 0;
    };

    /** The tutor's free slots starting on `day` in `zone` (past hours and days beyond 30 never): the one slot engine. */
    const slotsOn = async (tutorId: string, day: string, zone: string, excludeSessionId: string | null = null) => {
      const tutor = await existingTutor(tutorId);
      const range = dayRange(supportedDayOf(day, 'date', DATE_FORMAT), zone);
      const now = app.clock.now();
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

    const callerZone = async (principal: Principal) => {
      const [user] = await sql<{ timezone: string | null }[]>`SELECT timezone FROM users WHERE id = ${principal.userId}`;
      return zoneOrDefault(user?.timezone);
    };

    /** The account-holder rule over the students read model: 404 for an unknown student, 403 for someone else's. */
    const actForStudent = studentAccess((studentId) => findStudent(sql, studentId));

    async function book(
      principal: Principal,
      input: { tutorId: string; courseId: string; start: string; notes: string | null | undefined },
      ctx: CommandContext,
    ) {
      const course = await ledger.course(input.courseId);
      if (!course.exists || !course.studentId) throw new DomainError(COURSE_NOT_FOUND, 'not_found');
      // The account holders (for the permission check) and the facts the session records, in one query.
      const [facts] = await sql<{ user_id: string; parent_id: string | null; timezone: string | null; subject_name: string | null }[]>`
        SELECT s.user_id, s.parent_id, u.timezone, (SELECT name FROM subjects WHERE id = ${course.subjectId ?? ''}) AS subject_name
        FROM students s LEFT JOIN users u ON u.id = s.user_id
        WHERE s.id = ${course.studentId}`;
      const student = requireStudentAccess(
        principal,
        course.studentId,
        facts ? { userId: facts.user_id, parentId: facts.parent_id, timezone: facts.timezone, subjectName: facts.subject_name } : null,
        'act',
      );
      // The course was just read for the permission check: the booking's own checks reuse it
      // (the credit reservation still decides on the course stream with its expected revision).
      const bookingPorts: SessionPorts = {
        ...ports,
        courses: { ...ledger, course: async (courseId) => (courseId === input.courseId ? course : ledger.course(courseId)) },
      };
      const { position, sessionId } = await bookSession(
        handlers,
        bookingPorts,
        {
          tutorId: input.tutorId,
          courseId: input.courseId,
          studentId: course.studentId,
          studentUserId: student.userId,
          studentTimeZone: zoneOrDefault(student.timezone),
          subjectName: student.subjectName ?? 'Tutoring',
          start: input.start,
          notes: input.notes,
        },
        ctx,
      );
      await readYourWrites(sql, sessionModels, position ?? (await store.committedPosition()));
      const session = (await listStudentSessions(sql, course.studentId)).find((s) => s.id === sessionId);
      if (!session) throw new DomainError(SESSION_NOT_FOUND, 'not_found');
      return { status: 201, body: { ...session, studentId: course.studentId } };
    }

    /** The session as its stream says, and whether the principal is one of its parties. */
    const sessionFor = async (principal: Principal, sessionId: string, allowed: readonly ('holder' | 'tutor' | 'admin')[]) => {
      const state = await handlers.sessions.load(sessionId);
      const booked = state.booked;
      if (!booked) throw new DomainError(SESSION_NOT_FOUND, 'not_found');
      if (allowed.includes('admin') && principal.role === 'admin') return { state, booked };
      if (allowed.includes('tutor') && principal.role === 'tutor' && principal.userId === booked.tutorId) return { state, booked };
      if (allowed.includes('holder')) {
        await actForStudent(principal, booked.studentId, 'act');
        return { state, booked };
      }
      throw new DomainError(FORBIDDEN, 'forbidden');
    };

    app.get(
      '/api/tutors/:id/available-slots',
      {
        config: slotReaders,
        schema: {
          tags: ['sessions'],
          summary:
            'The tutor’s free one-hour slots starting on a date, as "HH:mm" New York times (spec part 2 §9), with each slot’s instant and a label (the fall-back night’s two 01:00s: "01:00 EDT", "01:00 EST")',
          params: z.object({ id }),
          querystring: z.object({ date: bookingDay }),
          response: { 200: z.array(bookingSlotSchema), 404: messageSchema, 422: messageSchema },
        },
      },
      async (request) => {
        await existingTutor(request.params.id);
        if (!(await hasHours(request.params.id))) throw new DomainError(NO_AVAILABILITY_SET, 'unprocessable');
        const slots = await slotsOn(request.params.id, request.query.date, BOOKING_GRID_ZONE);
        return bookingTimes(slots, request.query.date, BOOKING_GRID_ZONE);
      },
    );

    app.get(
      '/api/tutors/:tutorId/availability/:date',
      {
        config: slotReaders,
        schema: {
          tags: ['sessions'],
          summary: 'The tutor’s free slots starting on a date in the caller’s zone (or `timezone`), as instants',
          params: z.object({ tutorId: id, date: bookingDay }),
          querystring: z.object({ timezone: timeZoneField().optional() }),
          response: { 200: dayAvailabilitySchema, 404: messageSchema },
        },
      },
      async (request) => {
        const given = request.query.timezone;
        const zone = given === undefined ? await callerZone(principalOf(request)) : knownTimeZoneOf(given, 'timezone');
        return { slots: await slotsOn(request.params.tutorId, request.params.date, zone) };
      },
    );

    app.get(
      '/api/tutors/:tutorId/reschedule-availability/:date',
      {
        config: sessionParties,
        schema: {
          tags: ['sessions'],
          summary: 'Free start times on a date (caller’s zone) for moving a session; the session’s own hour does not block',
          params: z.object({ tutorId: id, date: bookingDay }),
          querystring: z.object({ excludeSessionId: id.optional(), timezone: timeZoneField().optional() }),
          response: { 200: rescheduleAvailabilitySchema, 403: messageSchema, 404: messageSchema },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const { tutorId } = request.params;
        await existingTutor(tutorId);
        const exclude = request.query.excludeSessionId ?? null;
        if (exclude) {
          const { booked } = await sessionFor(principal, exclude, ['holder', 'tutor', 'admin']);
          if (booked.tutorId !== tutorId) throw new DomainError(SESSION_NOT_FOUND, 'not_found');
        } else if (principal.role === 'tutor' && principal.userId !== tutorId) {
          throw new DomainError(NOT_YOUR_SESSIONS, 'forbidden');
        }
        const given = request.query.timezone;
        const zone = given === undefined ? await callerZone(principal) : knownTimeZoneOf(given, 'timezone');
        const slots = await slotsOn(tutorId, request.params.date, zone, exclude);
        return { slots: slots.map(({ start }) => ({ start })) };
      },
    );

    app.post(
      '/api/book-session',
      {
        config: bookers,
        schema: {
          tags: ['sessions'],
          summary: 'Book a 60-minute session with the course’s tutor at one of the tutor’s free slots; holds a credit of the course',
          body: bookSessionBody,
          response: { 201: bookedSessionSchema, 400: badRequestSchema, 403: messageSchema, 404: messageSchema, 409: messageSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, (ctx) =>
          book(
            principalOf(request),
            { tutorId: request.body.tutorId, courseId: request.body.studentCourseId, start: request.body.date, notes: request.body.notes },
            ctx,
          ),
        ),
    );

    app.post(
      '/api/sessions/book-with-calendar',
      {
        config: bookers,
        schema: {
          tags: ['sessions'],
          summary: 'Book a session given as a New York date, start and end time (spec part 2 §7); the course is the purchase’s',
          body: bookWithCalendarBody,
          response: { 201: bookedSessionSchema, 400: badRequestSchema, 403: messageSchema, 404: messageSchema, 409: messageSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const body = request.body;
          const start = localInstant(body.date, body.startTime, BOOKING_GRID_ZONE);
          const end = localInstant(body.date, body.endTime, BOOKING_GRID_ZONE);
          if (!start || !end) throw new InvalidFieldError('date', DATE_FORMAT);
          if (end.epochMilliseconds - start.epochMilliseconds !== SESSION_MINUTES * 60_000)
            throw new DomainError(SESSION_LENGTH, 'invalid');
          const principal = principalOf(request);
          await actForStudent(principal, body.studentId, 'act');
          const [course] = await sql<{ id: string }[]>`
            SELECT c.id FROM student_courses c
            WHERE c.student_id = ${body.studentId}
              AND (c.purchase_id = ${body.purchaseId} OR c.id = ${body.purchaseId}
                   OR (${body.subject ?? null}::text IS NOT NULL AND c.subject_id IN (SELECT id FROM subjects WHERE name = ${body.subject ?? null})))
            ORDER BY c.status = 'inactive', c.purchase_id = ${body.purchaseId} DESC, c.created_at DESC LIMIT 1`;
          if (!course) throw new DomainError(COURSE_NOT_FOUND, 'not_found');
          return book(principal, { tutorId: body.tutorId, courseId: course.id, start: start.toString(), notes: body.notes }, ctx);
        }),
    );

    app.get(
      '/api/sessions/tutor/:tutorId',
      {
        config: { roles: ['tutor', 'admin'] },
        schema: {
          tags: ['sessions'],
          summary: 'The tutor’s sessions, oldest first (the tutor themself or an admin)',
          params: z.object({ tutorId: id }),
          response: { 200: z.array(tutorSessionSchema), 403: messageSchema, 404: messageSchema },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const { tutorId } = request.params;
        await existingTutor(tutorId);
        if (principal.role !== 'admin' && principal.userId !== tutorId) throw new DomainError(NOT_YOUR_SESSIONS, 'forbidden');
        return listTutorSessions(sql, tutorId);
      },
    );

    app.post(
      '/api/sessions/:id/cancel',
      {
        config: sessionParties,
        schema: {
          tags: ['sessions'],
          summary:
            'Cancel a session: more than 12 hours before its start the credit comes back, later the session counts as used (spec part 1 §9)',
          params: z.object({ id }),
          body: cancelSessionBody,
          response: {
            200: z.object({ id: z.string(), status: z.literal('cancelled'), credit: z.enum(['released', 'forfeited']).nullable() }),
            403: messageSchema,
            404: messageSchema,
            409: messageSchema,
          },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const sessionId = request.params.id;
          await sessionFor(principalOf(request), sessionId, ['holder', 'tutor', 'admin']);
          const { position, credit } = await cancelSession(handlers, ports, { sessionId, reason: request.body.reason?.trim() ?? '' }, ctx);
          await readYourWrites(sql, sessionModels, position);
          return { status: 200, body: { id: sessionId, status: 'cancelled' as const, credit } };
        }),
    );

    app.patch(
      '/api/sessions/:id/complete',
      {
        config: { roles: ['tutor'] },
        schema: {
          tags: ['sessions'],
          summary: 'The tutor marks the session completed, at or after its start; the notes become the session report; uses the credit',
          params: z.object({ id }),
          body: completeSessionBody,
          response: { 200: tutorSessionSchema, 400: badRequestSchema, 403: messageSchema, 404: messageSchema, 409: messageSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const sessionId = request.params.id;
          const principal = principalOf(request);
          const { booked } = await sessionFor(principal, sessionId, ['tutor']).catch((error: unknown) => {
            if (error instanceof DomainError && error.kind === 'forbidden') throw new DomainError(ONLY_THE_TUTOR_COMPLETES, 'forbidden');
            throw error;
          });
          if (request.body.completed === false) throw new DomainError('Only completing a session is supported here', 'invalid');
          const { position } = await completeSession(handlers, ports, { sessionId, notes: request.body.notes?.trim() ?? '' }, ctx);
          await readYourWrites(sql, sessionModels, position);
          const session = (await listTutorSessions(sql, booked.tutorId)).find((s) => s.id === sessionId);
          if (!session) throw new DomainError(SESSION_NOT_FOUND, 'not_found');
          return { status: 200, body: session };
        }),
    );

    app.patch(
      '/api/sessions/:id/reschedule',
      {
        config: sessionParties,
        schema: {
          tags: ['sessions'],
          summary: 'Move a session to another free hour of its tutor, given as a local time in `timezone` (the caller’s zone by default)',
          params: z.object({ id }),
          body: rescheduleSessionBody,
          response: { 200: tutorSessionSchema, 400: badRequestSchema, 403: messageSchema, 404: messageSchema, 409: messageSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const sessionId = request.params.id;
          const principal = principalOf(request);
          const { booked } = await sessionFor(principal, sessionId, ['holder', 'tutor', 'admin']);
          // A zone given is used or refused (400 naming timezone), never replaced; none means the caller's.
          const given = request.body.timezone;
          const zone = given === undefined || given === null ? await callerZone(principal) : knownTimeZoneOf(given, 'timezone');
          const [day = '', time = ''] = request.body.newDate.split('T');
          const local = localInstant(supportedDayOf(day, 'newDate', NEW_DATE_FORMAT), time, zone);
          if (!local) throw new InvalidFieldError('newDate', NEW_DATE_FORMAT);
          const start = request.body.start === undefined ? local : chosenInstant(request.body.start, request.body.newDate, zone);
          const { position } = await rescheduleSession(handlers, ports, { sessionId, start: start.toString(), timeZone: zone }, ctx);
          await readYourWrites(sql, sessionModels, position ?? (await store.committedPosition()));
          const session = (await listTutorSessions(sql, booked.tutorId)).find((s) => s.id === sessionId);
          if (!session) throw new DomainError(SESSION_NOT_FOUND, 'not_found');
          return { status: 200, body: session };
        }),
    );
  };
