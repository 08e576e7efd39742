import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { resyncTutorCalendar, sendSessionInvite } from '../../../commands/sessions/sessionCalendarSync.ts';
import { openTutorCalendar } from '../../../commands/tutors/tutorCalendar.ts';
import { tutorHandlers } from '../../../commands/tutors/tutorHandlers.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import { sendInviteAnswerSchema, syncCalendarAnswerSchema, syncStatusSchema } from '../../../domain/sessions/sessionCalendarApi.ts';
import { SESSION_NOT_FOUND } from '../../../domain/sessions/sessionDecider.ts';
import { TUTOR_NOT_FOUND } from '../../../domain/tutors/tutorDecider.ts';
import { calendarSyncSummary } from '../../../projections/sessions/calendarSyncStatus.ts';
import { findSession } from '../../../projections/sessions/queries.ts';

import type { System } from '../../../system.ts';
import { FORBIDDEN, type Principal, principalOf } from '../../kit/auth.ts';
import { idempotent } from '../../kit/commandRequest.ts';

const tutorOrAdmin = { roles: ['tutor', 'admin'] } as const;
const id = z.string().min(1).max(100);
const messageSchema = z.object({ message: z.string() });

/** The tutor themself or an admin: nobody else reads or drives a tutor's calendar. */
function mayActFor(principal: Principal, tutorId: string): void {
  if (principal.role !== 'admin' && principal.userId !== tutorId) throw new DomainError(FORBIDDEN, 'forbidden');
}

/** The calendar sync card's calls and Send Invite (spec part 2 §7 "Tutor" and "Sessions"). */
export const sessionCalendarRoutes =
  ({ sql, store, calendar }: Pick<System, 'sql' | 'store' | 'calendar'>): FastifyPluginAsyncZod =>
  async (app) => {
    const clock = app.clock;
    const openCalendar = async (tutorId: string) => (await openTutorCalendar({ store, calendar, clock }, tutorId)).calendar;
    const deps = { sql, store, openCalendar, clock };
    const tutors = tutorHandlers(store).tutors;
    const existingTutor = async (tutorId: string) => {
      if (!(await tutors.load(tutorId)).exists) throw new DomainError(TUTOR_NOT_FOUND, 'not_found');
    };

    app.get(
      '/api/tutor/:tutorId/sync-status',
      {
        config: tutorOrAdmin,
        schema: {
          tags: ['sessions'],
          summary: 'How many of the tutor’s upcoming sessions are in their calendar, pending or failed, and the last write',
          params: z.object({ tutorId: id }),
          response: { 200: syncStatusSchema, 403: messageSchema, 404: messageSchema },
        },
      },
      async (request) => {
        const { tutorId } = request.params;
        await existingTutor(tutorId);
        mayActFor(principalOf(request), tutorId);
        return calendarSyncSummary(sql, tutorId, app.clock.now());
      },
    );

    app.post(
      '/api/tutor/:tutorId/sync-calendar',
      {
        config: tutorOrAdmin,
        schema: {
          tags: ['sessions'],
          summary: 'Brings the tutor’s calendar in step with their upcoming sessions now (the 5-minute sync, at once)',
          params: z.object({ tutorId: id }),
          response: { 200: syncCalendarAnswerSchema, 403: messageSchema, 404: messageSchema },
        },
      },
      async (request) => {
        const { tutorId } = request.params;
        await existingTutor(tutorId);
        mayActFor(principalOf(request), tutorId);
        const { updatedSessions, errors } = await resyncTutorCalendar(deps, tutorId);
        return { success: errors.length === 0, updatedSessions, errors };
      },
    );

    app.post(
      '/api/sessions/:id/send-invite',
      {
        config: tutorOrAdmin,
        schema: {
          tags: ['sessions'],
          summary: 'Sends the calendar invitation with the Meet link to the student or parent again (409 when there is no calendar event)',
          params: z.object({ id }),
          response: { 200: sendInviteAnswerSchema, 403: messageSchema, 404: messageSchema, 409: messageSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const session = await findSession(sql, request.params.id);
          if (!session) throw new DomainError(SESSION_NOT_FOUND, 'not_found');
          mayActFor(principalOf(request), session.tutorId);
          const meetingLink = await sendSessionInvite(deps, session.id, ctx.commandId);
          return { status: 200, body: { success: true as const, meetingLink } };
        }),
    );
  };
