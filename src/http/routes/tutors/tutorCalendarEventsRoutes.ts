import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { calendarEventId } from '../../../adapters/calendar/calendarPort.ts';
import {
  changeCalendarEvent,
  createCalendarEvent,
  deleteCalendarEvent,
  listCalendarEvents,
  readCalendarEvent,
} from '../../../commands/tutors/calendarEvents.ts';
import { type OpenedTutorCalendar, openTutorCalendar } from '../../../commands/tutors/tutorCalendar.ts';
import { DEFAULT_TIMEZONE } from '../../../domain/accounts/accountPolicy.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import {
  calendarEventBody,
  calendarEventListSchema,
  calendarEventPatchBody,
  calendarEventSchema,
  calendarEventsQuery,
  InvalidCalendarEventError,
  listBound,
  MAX_LIST_DAYS,
} from '../../../domain/tutors/calendarEventsApi.ts';
import { TUTOR_NOT_FOUND } from '../../../domain/tutors/tutorDecider.ts';
import { currentUser } from '../../../projections/accounts/queries.ts';
import type { System } from '../../../system.ts';
import { principalOf } from '../../kit/auth.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { answerFailure } from './tutorCalendarRoutes.ts';

export const MANAGE_IN_GOOGLE = 'Manage your calendar events in Google Calendar';

const tutorOnly = { roles: ['tutor'] } as const;
const DAY_MS = 86_400_000;
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
  ({ sql, store, calendar: port }: Pick<System, 'sql' | 'store' | 'calendar'>): FastifyPluginAsyncZod =>
  async (app) => {
    const deps = { store, calendar: port, clock: app.clock };

    /** The signed-in tutor's own calendar (never another's: the tutor is the session's user); 404 without a tutor profile. */
    const ownCalendar = async (request: FastifyRequest): Promise<OpenedTutorCalendar & { tutorId: string }> => {
      if (port.kind !== 'sandbox') throw new DomainError(MANAGE_IN_GOOGLE, 'conflict');
      const tutorId = principalOf(request).userId;
      const opened = await openTutorCalendar(deps, tutorId);
      if (!opened.tutor.exists) throw new DomainError(TUTOR_NOT_FOUND, 'not_found');
      return { ...opened, tutorId };
    };
    const zoneOf = async (request: FastifyRequest, opened: OpenedTutorCalendar) =>
      opened.tutor.timeZone ?? (await currentUser(sql, principalOf(request)))?.timezone ?? DEFAULT_TIMEZONE;

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
        const opened = await ownCalendar(request);
        try {
          const { query } = request;
          const from = (query.from && listBound(query.from)?.epochMilliseconds) || app.clock.now().getTime();
          const to = query.to ? (listBound(query.to)?.epochMilliseconds ?? 0) : from + 30 * DAY_MS;
          if (to <= from) throw new InvalidCalendarEventError({ field: 'to', message: 'to must be after from' });
          if (to - from > MAX_LIST_DAYS * DAY_MS)
            throw new InvalidCalendarEventError({ field: 'to', message: `A listing covers at most ${MAX_LIST_DAYS} days` });
          const items = await listCalendarEvents(opened.calendar, {
            from: new Date(from).toISOString(),
            to: new Date(to).toISOString(),
            singleEvents: query.singleEvents !== 'false',
          });
          return { timeZone: await zoneOf(request, opened), items };
        } catch (error) {
          return answerFailure(reply, error);
        }
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
        const opened = await ownCalendar(request);
        try {
          return await readCalendarEvent(opened.calendar, request.params.id);
        } catch (error) {
          return answerFailure(reply, error);
        }
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
        const opened = await ownCalendar(request);
        return idempotent(sql, request, reply, async (ctx) => {
          // The id derives from the command id (the Idempotency-Key's, when one is sent): a retry makes no second event.
          const id = calendarEventId(opened.tutorId, 'event', ctx.commandId);
          return { status: 201, body: await createCalendarEvent(opened.calendar, id, request.body) };
        }).catch((error: unknown) => answerFailure(reply, error));
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
        const opened = await ownCalendar(request);
        return idempotent(sql, request, reply, async () => ({
          status: 200,
          body: await changeCalendarEvent(opened.calendar, request.params.id, request.body),
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
        const opened = await ownCalendar(request);
        try {
          await deleteCalendarEvent(opened.calendar, request.params.id);
          return reply.status(204).send(null);
        } catch (error) {
          return answerFailure(reply, error);
        }
      },
    );
  };
