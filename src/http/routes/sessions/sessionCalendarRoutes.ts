import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainError } from '../../../domain/kit/decider.ts';
import { sendInviteAnswerSchema, syncCalendarAnswerSchema, syncStatusSchema } from '../../../domain/sessions/sessionCalendarApi.ts';
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
  ({ sql, sessions, tutors }: Pick<System, 'sql' | 'sessions' | 'tutors'>): FastifyPluginAsyncZod =>
  async (app) => {
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
        await tutors.existingTutor(tutorId);
        mayActFor(principalOf(request), tutorId);
        return sessions.calendar.syncStatus(tutorId);
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
        await tutors.existingTutor(tutorId);
        mayActFor(principalOf(request), tutorId);
        return sessions.calendar.resync(tutorId);
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
          const session = await sessions.calendar.session(request.params.id);
          mayActFor(principalOf(request), session.tutorId);
          const meetingLink = await sessions.calendar.sendInvite(session.id, ctx);
          return { status: 200, body: { success: true as const, meetingLink } };
        }),
    );
  };
