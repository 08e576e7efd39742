import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CommandContext } from '../../../commands/kit/commandContext.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import { timeZoneField } from '../../../domain/kit/timeZones.ts';
import {
  bookingDay,
  bookingSlotSchema,
  bookSessionBody,
  bookWithCalendarBody,
  cancelSessionBody,
  completeSessionBody,
  dayAvailabilitySchema,
  rescheduleAvailabilitySchema,
  rescheduleSessionBody,
  studentSessionSchema,
  tutorSessionSchema,
} from '../../../domain/sessions/sessionApi.ts';
import { SESSION_NOT_FOUND } from '../../../domain/sessions/sessionDecider.ts';
import { NOT_YOUR_SESSIONS, ONLY_COMPLETING, ONLY_THE_TUTOR_COMPLETES } from '../../../domain/sessions/sessionMessages.ts';
import type { System } from '../../../system.ts';
import { FORBIDDEN, type Principal, principalOf } from '../../kit/auth.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { readYourWrites } from '../../kit/readYourWrites.ts';
import { requireStudentAccess, studentAccess } from '../../kit/studentAccess.ts';

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
/** What a session's answer reads: the session list and the course's credits. */
const sessionModels = ['sessions', 'student_courses'] as const;

/**
 * Sessions (spec part 2 §7 "Sessions"): a tutor's free hours, booking, the tutor's sessions, and
 * cancelling, completing and moving a session. Each route parses, authorises (the role config and
 * the account-holder rule), calls the sessions module (src/commands/sessions/sessionsModule.ts),
 * waits for its reads and answers.
 */
export const sessionRoutes =
  ({ sql, sessions }: Pick<System, 'sql' | 'sessions'>): FastifyPluginAsyncZod =>
  async (app) => {
    /** The account-holder rule over the students read model: 404 for an unknown student, 403 for someone else's. */
    const actForStudent = studentAccess(sessions.studentHolders);

    /** The booked session, when the principal is one of the parties `allowed` (404 unknown, 403 someone else's). */
    const sessionFor = async (principal: Principal, sessionId: string, allowed: readonly ('holder' | 'tutor' | 'admin')[]) => {
      const booked = await sessions.bookedSession(sessionId);
      if (allowed.includes('admin') && principal.role === 'admin') return booked;
      if (allowed.includes('tutor') && principal.role === 'tutor' && principal.userId === booked.tutorId) return booked;
      if (allowed.includes('holder')) {
        await actForStudent(principal, booked.studentId, 'act');
        return booked;
      }
      throw new DomainError(FORBIDDEN, 'forbidden');
    };

    /** Books on the course when the principal may act for its student; answers the session as the student's list shows it. */
    async function book(
      principal: Principal,
      input: { tutorId: string; courseId: string; start: string; notes: string | null | undefined },
      ctx: CommandContext,
    ) {
      const booking = await sessions.courseToBook(input.courseId);
      const student = requireStudentAccess(principal, booking.studentId, booking.student, 'act');
      const { position, sessionId } = await sessions.book({ ...booking, student }, input, ctx);
      await readYourWrites(sql, sessionModels, position);
      const session = await sessions.studentSession(booking.studentId, sessionId);
      return { status: 201, body: { ...session, studentId: booking.studentId } };
    }

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
      async (request) => sessions.bookingGrid(request.params.id, request.query.date),
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
        const zone = await sessions.zoneFor(principalOf(request).userId, request.query.timezone);
        return { slots: await sessions.freeSlots(request.params.tutorId, request.params.date, zone) };
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
        await sessions.existingTutor(tutorId);
        const exclude = request.query.excludeSessionId ?? null;
        if (exclude) {
          const booked = await sessionFor(principal, exclude, ['holder', 'tutor', 'admin']);
          if (booked.tutorId !== tutorId) throw new DomainError(SESSION_NOT_FOUND, 'not_found');
        } else if (principal.role === 'tutor' && principal.userId !== tutorId) {
          throw new DomainError(NOT_YOUR_SESSIONS, 'forbidden');
        }
        const zone = await sessions.zoneFor(principal.userId, request.query.timezone);
        const slots = await sessions.freeSlots(tutorId, request.params.date, zone, exclude);
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
          const start = sessions.gridHourStart(body.date, body.startTime, body.endTime);
          const principal = principalOf(request);
          await actForStudent(principal, body.studentId, 'act');
          const courseId = await sessions.courseOfCalendarBooking({
            studentId: body.studentId,
            purchaseId: body.purchaseId,
            subject: body.subject ?? null,
          });
          return book(principal, { tutorId: body.tutorId, courseId, start, notes: body.notes }, ctx);
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
        await sessions.existingTutor(tutorId);
        if (principal.role !== 'admin' && principal.userId !== tutorId) throw new DomainError(NOT_YOUR_SESSIONS, 'forbidden');
        return sessions.tutorSessions(tutorId);
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
          const { position, credit } = await sessions.cancel(sessionId, { reason: request.body.reason?.trim() ?? '' }, ctx);
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
          const booked = await sessionFor(principal, sessionId, ['tutor']).catch((error: unknown) => {
            if (error instanceof DomainError && error.kind === 'forbidden') throw new DomainError(ONLY_THE_TUTOR_COMPLETES, 'forbidden');
            throw error;
          });
          if (request.body.completed === false) throw new DomainError(ONLY_COMPLETING, 'invalid');
          const { position } = await sessions.complete(sessionId, request.body.notes?.trim() ?? '', ctx);
          await readYourWrites(sql, sessionModels, position);
          return { status: 200, body: await sessions.tutorSession(booked.tutorId, sessionId) };
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
          const booked = await sessionFor(principal, sessionId, ['holder', 'tutor', 'admin']);
          // A zone given is used or refused (400 naming timezone), never replaced; none means the caller's.
          const zone = await sessions.zoneFor(principal.userId, request.body.timezone);
          const { newDate, start } = request.body;
          const { position } = await sessions.reschedule(sessionId, { newDate, start, zone }, ctx);
          await readYourWrites(sql, sessionModels, position);
          return { status: 200, body: await sessions.tutorSession(booked.tutorId, sessionId) };
        }),
    );
  };
