import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contactMessageSchema, helpMessageSchema } from '../../../domain/contact/contactMessage.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import type { System } from '../../../system.ts';
import { FORBIDDEN, NOT_AUTHENTICATED, type Principal, principalOf } from '../../kit/auth.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { perIpLimit } from '../../kit/rateLimits.ts';

export { HELP_USER_LIMIT } from '../../../commands/contact/contactModule.ts';

const STUDENT_NOT_FOUND = 'Student not found';

export const contactRoutes =
  ({ accounts, config, contact, sql }: Pick<System, 'accounts' | 'config' | 'contact' | 'sql'>): FastifyPluginAsyncZod =>
  async (app) => {
    /**
     * The student a help message is about: a view-only login's own; else the one named, which must be
     * the caller's (their own profile or their child's: 404 unknown, 403 someone else's); else the
     * caller's first student, or none (a parent without students yet).
     */
    async function helpStudent(principal: Principal, asked: string | null | undefined): Promise<string | null> {
      if (principal.role === 'student_secondary') {
        if (asked && asked !== principal.studentId) throw new DomainError(FORBIDDEN, 'forbidden');
        return principal.studentId;
      }
      if (!asked) return accounts.ownStudent(principal.userId, null);
      const student = await accounts.student(asked);
      if (!student) throw new DomainError(STUDENT_NOT_FOUND, 'not_found');
      if (student.userId !== principal.userId && student.parentId !== principal.userId) throw new DomainError(FORBIDDEN, 'forbidden');
      return student.id;
    }

    const tooMany = (wait: string) => `Too many messages were sent from your network. Please try again in ${wait}.`;

    app.post(
      '/api/contact',
      {
        config: { roles: 'public', ...perIpLimit(config, 'contact', config.CONTACT_IP_LIMIT, tooMany) },
        schema: {
          tags: ['contact'],
          summary: 'Send a message to support; the sender gets a confirmation e-mail',
          body: contactMessageSchema,
          response: { 201: z.object({ ok: z.literal(true), id: z.string() }) },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const result = await contact.receive(request.body, ctx);
          await waitForProjections(sql, contact.projections, result.position);
          return { status: 201, body: { ok: true as const, id: result.contactId } };
        }),
    );

    app.post(
      '/api/contact/help',
      {
        config: {
          roles: ['student', 'parent', 'student_secondary'],
          ...perIpLimit(config, 'contact-help', config.CONTACT_IP_LIMIT, tooMany),
        },
        schema: {
          tags: ['contact'],
          summary:
            "The student area's Help dialog: a message to support from a signed-in student or parent (confirmation to their address)",
          body: helpMessageSchema,
          response: { 201: z.object({ ok: z.literal(true), id: z.string() }) },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const principal = principalOf(request);
          const studentId = await helpStudent(principal, request.body.studentId);
          const user = await accounts.currentUser(principal);
          if (!user) throw new DomainError(NOT_AUTHENTICATED, 'unauthenticated');
          const result = await contact.help(user, request.body, studentId, ctx);
          await waitForProjections(sql, contact.projections, result.position);
          return { status: 201, body: { ok: true as const, id: result.contactId } };
        }),
    );
  };
