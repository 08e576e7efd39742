import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CalendarError, type CalendarStatus, type TutorCalendar } from '../../../adapters/calendar/calendarPort.ts';
import {
  holdsHours,
  hoursSeriesOf,
  latestWeeklyHours,
  type OpenedTutorCalendar,
  openTutorCalendar,
  topmarkHoursSeries,
  type WeeklyHoursEntry,
  weeklyHoursOf,
  writeWeeklyHours,
  writtenHoursSeries,
} from '../../../commands/tutors/tutorCalendar.ts';
import { tutorHandlers } from '../../../commands/tutors/tutorHandlers.ts';
import { DEFAULT_TIMEZONE } from '../../../domain/accounts/accountPolicy.ts';
import { assertTimeZone, validateWeeklyHours } from '../../../domain/calendar/availability.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import { knownTimeZoneOf } from '../../../domain/kit/timeZones.ts';
import {
  type AvailabilityEntry,
  availabilityEntrySchema,
  calendarStatusSchema,
  saveAvailabilityBody,
} from '../../../domain/tutors/tutorApi.ts';
import { TUTOR_NOT_FOUND } from '../../../domain/tutors/tutorDecider.ts';
import { currentUser } from '../../../projections/accounts/queries.ts';
import type { System } from '../../../system.ts';
import { principalOf } from '../../kit/auth.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { ReadModelLagError, readYourWrites } from '../../kit/readYourWrites.ts';

const tutorOnly = { roles: ['tutor'] } as const;
const tutorOrAdmin = { roles: ['tutor', 'admin'] } as const;
const messageSchema = z.object({ message: z.string() });
const fieldErrorSchema = z.object({
  message: z.string(),
  field: z.string().optional(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});

export const AVAILABILITY_FETCH_FAILED = 'Failed to fetch availability';
export const NOT_YOUR_CALENDAR = 'You can only see your own calendar';
/** How long a write of the weekly hours waits for the calendar saga before answering 503. */
const HOURS_WRITE_TIMEOUT_MS = 10_000;
/** Unchanged hours saved longer ago than this, and missing from the calendar, are written by the request itself. */
const SAGA_GRACE_MS = 3_000;

/** A calendar provider's failure, in words the dashboard can show (its toast adds "Failed to fetch availability"). */
function providerFailure(error: CalendarError): { status: number; message: string; retryAfter?: number } {
  if (error.retryable)
    return {
      status: 503,
      message: `${AVAILABILITY_FETCH_FAILED}: the calendar is not answering. Please try again shortly.`,
      retryAfter: 5,
    };
  if (error.needsReauthorisation || error.reason === 'not_connected')
    return {
      status: 502,
      message: `${AVAILABILITY_FETCH_FAILED}: your calendar is not connected. Sign in with Google again to reconnect it.`,
    };
  if (error.reason === 'forbidden')
    return { status: 502, message: `${AVAILABILITY_FETCH_FAILED}: Topmark needs permission to make changes to your calendar.` };
  if (error.reason === 'not_found')
    return { status: 502, message: `${AVAILABILITY_FETCH_FAILED}: your calendar was not found or is not shared with Topmark.` };
  return { status: 502, message: `${AVAILABILITY_FETCH_FAILED}: the calendar refused the request.` };
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

const sameIds = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id) => b.includes(id));

const toEntry = (h: WeeklyHoursEntry): AvailabilityEntry => ({
  id: h.id,
  dayOfWeek: h.dayOfWeek,
  startTime: h.startTime,
  endTime: h.endTime,
  timezone: h.timeZone,
  isActive: true,
});

/** The tutor's calendar: weekly hours, connection status, onboarding completion (its events: tutorCalendarEventsRoutes). */
export const tutorCalendarRoutes =
  ({ sql, store, calendar: port }: Pick<System, 'sql' | 'store' | 'config' | 'calendar'>): FastifyPluginAsyncZod =>
  async (app) => {
    const handlers = tutorHandlers(store);
    const deps = { store, calendar: port, clock: app.clock };

    /** The signed-in tutor's calendar; 404 for an account without a tutor profile. */
    const ownCalendar = async (request: FastifyRequest): Promise<OpenedTutorCalendar & { tutorId: string }> => {
      const tutorId = principalOf(request).userId;
      const opened = await openTutorCalendar(deps, tutorId);
      if (!opened.tutor.exists) throw new DomainError(TUTOR_NOT_FOUND, 'not_found');
      return { ...opened, tutorId };
    };

    const zoneOf = async (request: FastifyRequest, opened: OpenedTutorCalendar) =>
      opened.tutor.timeZone ?? (await currentUser(sql, principalOf(request)))?.timezone ?? DEFAULT_TIMEZONE;

    const readHours = async (calendar: TutorCalendar, zone: string) =>
      weeklyHoursOf(await topmarkHoursSeries(calendar, app.clock.now()), zone).map(toEntry);

    /**
     * Waits until the calendar holds exactly the series of the tutor's latest weekly hours (the saga
     * wrote them). Hours saved again unchanged record nothing, so no saga runs: when they were saved
     * a while ago and the calendar lacks them (written while it was unreachable), they are written here.
     */
    const waitForHours = async (tutorId: string, calendar: TutorCalendar, unchanged: boolean) => {
      const latest = await latestWeeklyHours(store, tutorId);
      if (!latest) return;
      const expected = hoursSeriesOf(latest).map((s) => s.id);
      const deadline = Date.now() + HOURS_WRITE_TIMEOUT_MS;
      let healed = !unchanged || app.clock.now().getTime() - Date.parse(latest.at) < SAGA_GRACE_MS;
      for (let delay = 50; ; delay = Math.min(delay * 2, 500)) {
        const written = (await writtenHoursSeries(calendar, app.clock.now())).map((e) => e.id);
        if (sameIds(written, expected)) return;
        if (!healed) {
          healed = true;
          await writeWeeklyHours(deps, tutorId, latest.eventId);
          continue;
        }
        if (Date.now() >= deadline) throw new ReadModelLagError();
        await new Promise((r) => setTimeout(r, delay));
      }
    };

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
      async (request, reply) => {
        const opened = await ownCalendar(request);
        try {
          return await readHours(opened.calendar, await zoneOf(request, opened));
        } catch (error) {
          return answerFailure(reply, error);
        }
      },
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
        let availability: ReturnType<typeof validateWeeklyHours>;
        let timeZone: string;
        try {
          // The rules first: a refused body appends nothing.
          availability = validateWeeklyHours(request.body.availability);
          const given = request.body.timezone;
          timeZone =
            given === undefined
              ? assertTimeZone((await currentUser(sql, principalOf(request)))?.timezone ?? DEFAULT_TIMEZONE)
              : knownTimeZoneOf(given, 'timezone');
        } catch (error) {
          return answerFailure(reply, error);
        }
        return idempotent(sql, request, reply, async (ctx) => {
          const { events } = await handlers.tutors.handle(
            tutorId,
            { type: 'SetWeeklyHours', data: { tutorId, availability, timeZone } },
            ctx,
          );
          const opened = await ownCalendar(request);
          const status = await opened.calendar.status();
          if (!status.accessible) {
            // Saved; the calendar is written once the tutor reconnects it. Shown as saved but not active.
            const body = opened.tutor.weeklyHours.map((h, i) => ({ id: `unsynced-${i}`, ...h, timezone: timeZone, isActive: false }));
            return { status: 200, body };
          }
          await waitForHours(tutorId, opened.calendar, events.length === 0);
          return { status: 200, body: await readHours(opened.calendar, timeZone) };
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
        const opened = await openTutorCalendar(deps, tutorId);
        if (!opened.tutor.exists) throw new DomainError(TUTOR_NOT_FOUND, 'not_found');
        if (principal.role !== 'admin' && principal.userId !== tutorId) throw new DomainError(NOT_YOUR_CALENDAR, 'forbidden');
        const status: CalendarStatus = await opened.calendar.status().catch(() => ({
          accessible: false,
          email: null,
          isConnected: opened.hasCredentials,
          timeZone: null,
          reason: 'unavailable' as const,
        }));
        const savedHours = opened.tutor.weeklyHours.length > 0;
        // What the booking grid offers from: any "Topmark Hours" in the calendar's next 30 days.
        const hasAvailability = status.accessible ? await holdsHours(opened.calendar, app.clock.now()).catch(() => savedHours) : savedHours;
        return {
          accessible: status.accessible,
          email: status.email,
          isConnected: status.isConnected,
          hasAvailability,
          needsReauthorisation:
            status.reason === 'invalid_grant' || status.reason === 'unauthenticated' || (port.kind === 'google' && !opened.hasCredentials),
          serviceAccountEmail: port.serviceAccountEmail,
          provider: port.kind,
        };
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
          const opened = await ownCalendar(request);
          const status = await opened.calendar.status().catch(() => null);
          const { position } = await handlers.tutors.handle(
            opened.tutorId,
            { type: 'CompleteOnboarding', data: { tutorId: opened.tutorId, calendarConnected: status?.accessible === true } },
            ctx,
          );
          await readYourWrites(sql, ['tutors'], position);
          return { status: 200, body: { onboardingCompleted: true as const } };
        }),
    );
  };
