import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  calendarEventBody,
  calendarEventListSchema,
  calendarEventPatchBody,
  calendarEventSchema,
  calendarEventsQuery,
} from '../../../domain/tutors/calendarEventsApi.ts';
import type { System } from '../../../system.ts';
import { principalOf } from '../../kit/auth.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { answerFailure } from './tutorCalendarRoutes.ts';

export { MANAGE_IN_GOOGLE } from '../../../domain/tutors/tutorMessages.ts';

const tutorOnly = { roles: ['tutor'] } as const;
const messageSchema = z.object({ message: z.string() });
const fieldErrorSchema = z.object({
  message: z.string(),
  field: z.string().optional(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
const failures = { 400: fieldErrorSchema, 404: messageSchema, 409: messageSchema, 502: messageSchema, 503: messageSchema };
/** Event ids are base32hex (at most 1024 characters) plus an occurrence's `_<UTC start>`. */
const eventParams = z.object({ id: z.string().max(1100) });

/**
 * The signed-in tutor's own calendar events, in the shape of Google Calendar's event resource
 * (docs/tutors.md "Calendar events"). Sandbox only: on Google the tutor keeps their calendar in
 * Google, and these answer 409. Every write goes through the calendar port, so it raises the
 * calendar's shared revision and the booking grid follows at once.
 */
export const tutorCalendarEventsRoutes =
  ({ sql, tutors }: Pick<System, 'sql' | 'tutors'>): FastifyPluginAsyncZod =>
  async (app) => {
    /** The signed-in tutor's own events (never another's: the tutor is the session's user); 404 without a tutor profile, 409 on Google. */
    const ownEvents = (request: FastifyRequest) => tutors.ownEvents(principalOf(request).userId);

    app.get(
      '/api/tutor/calendar/events',
      {
        config: tutorOnly,
        schema: {
          tags: ['tutors'],
          summary:
            'The tutor’s events that end after from and start before to (default now and 30 days on; at most 62 days), series as their occurrences unless singleEvents=false; sandbox only',
          querystring: calendarEventsQuery,
          response: { 200: calendarEventListSchema, ...failures },
        },
      },
      async (request, reply) => {
        const events = await ownEvents(request);
        return events.list(request.query).catch((error: unknown) => answerFailure(reply, error));
      },
    );

    app.get(
      '/api/tutor/calendar/events/:id',
      {
        config: tutorOnly,
        schema: {
          tags: ['tutors'],
          summary: 'One of the tutor’s events: an event, a series (its master) or one occurrence (`<series>_<UTC start>`); sandbox only',
          params: eventParams,
          response: { 200: calendarEventSchema, ...failures },
        },
      },
      async (request, reply) => {
        const events = await ownEvents(request);
        return events.read(request.params.id).catch((error: unknown) => answerFailure(reply, error));
      },
    );

    app.post(
      '/api/tutor/calendar/events',
      {
        config: tutorOnly,
        schema: {
          tags: ['tutors'],
          summary:
            'Add an event or a series (Google’s event resource: summary, description, start/end, recurrence, transparency, status); "Topmark Hours" are bookable time, other events not marked transparent block it; sandbox only',
          body: calendarEventBody,
          response: { 201: calendarEventSchema, ...failures },
        },
      },
      async (request, reply) => {
        const events = await ownEvents(request);
        // The event's id derives from the command id: a retry makes no second event.
        return idempotent(sql, request, reply, async (ctx) => ({ status: 201, body: await events.create(request.body, ctx) })).catch(
          (error: unknown) => answerFailure(reply, error),
        );
      },
    );

    app.patch(
      '/api/tutor/calendar/events/:id',
      {
        config: tutorOnly,
        schema: {
          tags: ['tutors'],
          summary:
            'Change an event, a whole series, or one occurrence (then only that one: moved, changed, or cancelled with status "cancelled"); booked sessions are read-only (409); sandbox only',
          params: eventParams,
          body: calendarEventPatchBody,
          response: { 200: calendarEventSchema, ...failures },
        },
      },
      async (request, reply) => {
        const events = await ownEvents(request);
        return idempotent(sql, request, reply, async () => ({
          status: 200,
          body: await events.change(request.params.id, request.body),
        })).catch((error: unknown) => answerFailure(reply, error));
      },
    );

    app.delete(
      '/api/tutor/calendar/events/:id',
      {
        config: tutorOnly,
        schema: {
          tags: ['tutors'],
          summary: 'Delete an event, a whole series, or one occurrence of a series; booked sessions are read-only (409); sandbox only',
          params: eventParams,
          response: { 204: z.null(), ...failures },
        },
      },
      async (request, reply) => {
        const events = await ownEvents(request);
        try {
          await events.remove(request.params.id);
          return reply.status(204).send(null);
        } catch (error) {
          return answerFailure(reply, error);
        }
      },
    );
  };
