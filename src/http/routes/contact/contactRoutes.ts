import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RateLimiter, type RateLimitRule, waitText } from '../../../adapters/rateLimit/rateLimiter.ts';
import { receiveContactMessage, receiveHelpMessage } from '../../../commands/contact/receiveContactMessage.ts';
import { contactMessageSchema, helpMessageSchema } from '../../../domain/contact/contactMessage.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import { currentUser, findOwnStudent, findStudent } from '../../../projections/accounts/queries.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import type { System } from '../../../system.ts';
import { FORBIDDEN, NOT_AUTHENTICATED, type Principal, principalOf } from '../../kit/auth.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { perIpLimit } from '../../kit/rateLimits.ts';

/** Help messages per account (the view-only login counts with its student's account); always on. */
export const HELP_USER_LIMIT: RateLimitRule = { limit: 10, windowSeconds: 3600 };
const STUDENT_NOT_FOUND = 'Student not found';

/**
 * The student a help message is about: a view-only login's own; else the one named, which must be
 * the caller's (their own profile or their child's: 404 unknown, 403 someone else's); else the
 * caller's first student, or none (a parent without students yet).
 */
async function helpStudent(sql: System['sql'], principal: Principal, asked: string | null | undefined): Promise<string | null> {
  if (principal.role === 'student_secondary') {
    if (asked && asked !== principal.studentId) throw new DomainError(FORBIDDEN, 'forbidden');
    return principal.studentId;
  }
  if (!asked) return findOwnStudent(sql, principal.userId, null);
  const student = await findStudent(sql, asked);
  if (!student) throw new DomainError(STUDENT_NOT_FOUND, 'not_found');
  if (student.userId !== principal.userId && student.parentId !== principal.userId) throw new DomainError(FORBIDDEN, 'forbidden');
  return student.id;
}

export const contactRoutes =
  (system: Pick<System, 'accounts' | 'config' | 'sql' | 'store'>): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/contact',
      {
        config: {
          roles: 'public',
          ...perIpLimit(
            system.config,
            'contact',
            system.config.CONTACT_IP_LIMIT,
            (wait) => `Too many messages were sent from your network. Please try again in ${wait}.`,
          ),
        },
        schema: {
          tags: ['contact'],
          summary: 'Send a message to support; the sender gets a confirmation e-mail',
          body: contactMessageSchema,
          response: { 201: z.object({ ok: z.literal(true), id: z.string() }) },
        },
      },
      async (request, reply) =>
        idempotent(system.sql, request, reply, async (ctx) => {
          const result = await receiveContactMessage(system.store, request.body, ctx);
          await waitForProjections(system.sql, ['audit_log', 'contact_messages'], result.position);
          return { status: 201, body: { ok: true as const, id: result.contactId } };
        }),
    );

    app.post(
      '/api/contact/help',
      {
        config: {
          roles: ['student', 'parent', 'student_secondary'],
          ...perIpLimit(
            system.config,
            'contact-help',
            system.config.CONTACT_IP_LIMIT,
            (wait) => `Too many messages were sent from your network. Please try again in ${wait}.`,
          ),
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
        idempotent(system.sql, request, reply, async (ctx) => {
          const principal = principalOf(request);
          const studentId = await helpStudent(system.sql, principal, request.body.studentId);
          const user = await currentUser(system.sql, principal);
          if (!user) throw new DomainError(NOT_AUTHENTICATED, 'unauthenticated');
          const claim = await system.accounts.rateLimiter.claim(RateLimiter.key('help-user', principal.userId), HELP_USER_LIMIT);
          if (!claim.allowed) {
            throw new DomainError(
              `Too many help messages were sent from this account. Please try again in ${waitText(claim.retryAfterSeconds)}.`,
              'rate_limited',
            );
          }
          const name = request.body.name?.trim() || `${user.firstName} ${user.lastName}`.trim() || user.username;
          const { subject, message } = request.body;
          const result = await receiveHelpMessage(
            system.store,
            { name, email: user.email, subject, message, studentId },
            principal.userId,
            ctx,
          );
          await waitForProjections(system.sql, ['audit_log', 'contact_messages'], result.position);
          return { status: 201, body: { ok: true as const, id: result.contactId } };
        }),
    );
  };
