import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CalendarError } from '../../../adapters/calendar/calendarPort.ts';
import { HOURS_NOT_YET_IN_CALENDAR } from '../../../commands/tutors/tutorsModule.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import { availabilityEntrySchema, calendarStatusSchema, saveAvailabilityBody } from '../../../domain/tutors/tutorApi.ts';
import {
  CALENDAR_NEEDS_PERMISSION,
  CALENDAR_NOT_ANSWERING,
  CALENDAR_NOT_SHARED,
  CALENDAR_REFUSED,
  NOT_YOUR_CALENDAR,
  OWN_CALENDAR_NOT_CONNECTED,
} from '../../../domain/tutors/tutorMessages.ts';
import type { System } from '../../../system.ts';
import { principalOf } from '../../kit/auth.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { ReadModelLagError, readYourWrites } from '../../kit/readYourWrites.ts';

export { AVAILABILITY_FETCH_FAILED, NOT_YOUR_CALENDAR } from '../../../domain/tutors/tutorMessages.ts';

const tutorOnly = { roles: ['tutor'] } as const;
const tutorOrAdmin = { roles: ['tutor', 'admin'] } as const;
const messageSchema = z.object({ message: z.string() });
const fieldErrorSchema = z.object({
  message: z.string(),
  field: z.string().optional(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});

/** A calendar provider's failure as an answer: its status, and a retry hint when it may pass. */
function providerFailure(error: CalendarError): { status: number; message: string; retryAfter?: number } {
  if (error.retryable) return { status: 503, message: CALENDAR_NOT_ANSWERING, retryAfter: 5 };
  if (error.needsReauthorisation || error.reason === 'not_connected') return { status: 502, message: OWN_CALENDAR_NOT_CONNECTED };
  if (error.reason === 'forbidden') return { status: 502, message: CALENDAR_NEEDS_PERMISSION };
  if (error.reason === 'not_found') return { status: 502, message: CALENDAR_NOT_SHARED };
  return { status: 502, message: CALENDAR_REFUSED };
}

/** Errors of the rules on weekly hours name their field (`availability[0].endTime`, `timezone`). */
function fieldOf(error: unknown): string | null {
  if (!(error instanceof DomainError) || error.kind !== 'invalid') return null;
  if ('field' in error && typeof error.field === 'string') return error.field;
  if (error.name === 'InvalidTimeZoneError') return 'timezone';
  return null;
}

export function answerFailure(reply: FastifyReply, error: unknown): FastifyReply {
  if (error instanceof CalendarError) {
    const failure = providerFailure(error);
    if (failure.retryAfter) reply.header('retry-after', String(failure.retryAfter));
    return reply.status(failure.status).send({ message: failure.message });
  }
  const field = fieldOf(error);
  if (field && error instanceof Error)
    return reply.status(400).send({ message: error.message, field, errors: [{ field, message: error.message }] });
  throw error;
}

/** The tutor's calendar: weekly hours, connection status, onboarding completion (its events: tutorCalendarEventsRoutes). */
export const tutorCalendarRoutes =
  ({ sql, tutors }: Pick<System, 'sql' | 'tutors'>): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/tutor/availability',
      {
        config: tutorOnly,
        schema: {
          tags: ['tutors'],
          summary: 'The weekly hours: the recurring "Topmark Hours" events of the tutor’s calendar',
          response: { 200: z.array(availabilityEntrySchema), 404: messageSchema, 502: messageSchema, 503: messageSchema },
        },
      },
      async (request, reply) => tutors.weeklyHours(principalOf(request).userId).catch((error: unknown) => answerFailure(reply, error)),
    );

    app.post(
      '/api/tutor/availability',
      {
        config: tutorOnly,
        schema: {
          tags: ['tutors'],
          summary:
            'Set the weekly hours (0 = Sunday … 6, "HH:mm" in the tutor’s zone): written to the calendar as recurring "Topmark Hours" events; answers them read back',
          body: saveAvailabilityBody,
          response: {
            200: z.array(availabilityEntrySchema),
            400: fieldErrorSchema,
            404: messageSchema,
            502: messageSchema,
            503: messageSchema,
          },
        },
      },
      async (request, reply) => {
        const tutorId = principalOf(request).userId;
        let hours: Awaited<ReturnType<typeof tutors.checkWeeklyHours>>;
        try {
          // The rules first: a refused body appends nothing.
          hours = await tutors.checkWeeklyHours(tutorId, request.body);
        } catch (error) {
          return answerFailure(reply, error);
        }
        return idempotent(sql, request, reply, async (ctx) => {
          // Answered once the calendar holds them (saved but inactive while it cannot be reached).
          const body = await tutors.setWeeklyHours(tutorId, hours, ctx);
          if (body === HOURS_NOT_YET_IN_CALENDAR) throw new ReadModelLagError();
          return { status: 200, body };
        }).catch((error: unknown) => answerFailure(reply, error));
      },
    );

    app.get(
      '/api/tutor/:tutorId/calendar-status',
      {
        config: tutorOrAdmin,
        schema: {
          tags: ['tutors'],
          summary: 'Whether Topmark can reach the tutor’s calendar, and whether it holds weekly hours (the tutor themself or an admin)',
          params: z.object({ tutorId: z.string().max(100) }),
          response: { 200: calendarStatusSchema, 403: messageSchema, 404: messageSchema },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const { tutorId } = request.params;
        const opened = await tutors.existingCalendar(tutorId);
        if (principal.role !== 'admin' && principal.userId !== tutorId) throw new DomainError(NOT_YOUR_CALENDAR, 'forbidden');
        return tutors.calendarStatus(opened);
      },
    );

    app.post(
      '/api/tutor/onboarding/complete',
      {
        config: tutorOnly,
        schema: {
          tags: ['tutors'],
          summary: 'Finish onboarding: needs a bio, a teaching subject, weekly hours and a reachable calendar (422 lists what is missing)',
          response: { 200: z.object({ onboardingCompleted: z.literal(true) }), 404: messageSchema, 422: messageSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const { position } = await tutors.completeOnboarding(principalOf(request).userId, ctx);
          await readYourWrites(sql, ['tutors'], position);
          return { status: 200, body: { onboardingCompleted: true as const } };
        }),
    );
  };
