import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Review } from '../../../commands/tutors/reviewApplication.ts';
import {
  adminListedUserSchema as adminListedUser,
  adminOverviewSchema,
  tutorInvitationActionAnswerSchema,
  tutorInvitationListSchema,
} from '../../../domain/tutors/adminApi.ts';
import { INVALID_INVITATION_EMAIL } from '../../../domain/tutors/invitationDecider.ts';
import type { System } from '../../../system.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { readYourWrites } from '../../kit/readYourWrites.ts';

export { APPLICANT_EMAIL_TAKEN } from '../../../domain/tutors/tutorMessages.ts';

const adminOnly = { roles: ['admin'] } as const;
/** The read models a review's answer shows (after its workflow registered the tutor or shredded the keys). */
const reviewedModels = ['tutor_applications', 'users', 'tutors'] as const;

const okSchema = z.object({ ok: z.literal(true), status: z.string() });
const messageSchema = z.object({ message: z.string() });
const applicantParams = z.object({ id: z.string().max(100) });
const inviteBody = z.object({
  email: z
    .string({ error: INVALID_INVITATION_EMAIL })
    .trim()
    .toLowerCase()
    .max(254, INVALID_INVITATION_EMAIL)
    .pipe(z.email({ error: INVALID_INVITATION_EMAIL })),
});

const invitationParams = z.object({ id: z.string().max(100) });
/** The read model the invitations list comes from: a write answers once it shows the change. */
const invitationModels = ['tutors'] as const;

/** The admin's side of tutor recruiting: invitations, applications under review, the overview counters. */
export const tutorRoutes =
  ({ sql, tutors }: Pick<System, 'sql' | 'tutors'>): FastifyPluginAsyncZod =>
  async (app) => {
    for (const path of ['/api/admin/tutor-applications', '/api/admin/tutors/pending']) {
      app.get(
        path,
        {
          config: adminOnly,
          schema: {
            tags: ['tutors'],
            summary: 'Tutor applications awaiting review, as admin-listed users',
            response: { 200: z.array(adminListedUser) },
          },
        },
        () => tutors.applications(),
      );
    }

    app.get(
      '/api/admin/overview',
      {
        config: adminOnly,
        schema: {
          tags: ['tutors'],
          summary: 'Accounts by role and tutor applications awaiting review',
          response: {
            200: adminOverviewSchema,
          },
        },
      },
      () => tutors.overview(),
    );

    app.post(
      '/api/admin/tutors/invite',
      {
        config: adminOnly,
        schema: {
          tags: ['tutors'],
          summary:
            'Invite an address to apply as a tutor (valid 14 days); the sign-in link is e-mailed. 409 while an invitation to the address is outstanding (resend it instead)',
          body: inviteBody,
          response: {
            201: z.object({ ok: z.literal(true), invitationId: z.string(), expiresAt: z.string().nullable() }),
            409: messageSchema,
          },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const { invitationId, expiresAt, position } = await tutors.invite(request.body.email, ctx);
          await readYourWrites(sql, invitationModels, position);
          return { status: 201, body: { ok: true as const, invitationId, expiresAt } };
        }),
    );

    app.get(
      '/api/admin/tutors/invitations',
      {
        config: adminOnly,
        schema: {
          tags: ['tutors'],
          summary: 'Tutor invitations, newest first: outstanding, accepted, revoked or expired, with the mails sent',
          response: { 200: tutorInvitationListSchema },
        },
      },
      () => tutors.invitations(),
    );

    const invitationAction = (action: 'resend' | 'revoke', summary: string) =>
      app.post(
        `/api/admin/tutors/invitations/:id/${action}`,
        {
          config: adminOnly,
          schema: {
            tags: ['tutors'],
            summary,
            params: invitationParams,
            response: { 200: tutorInvitationActionAnswerSchema, 404: messageSchema, 409: messageSchema, 429: messageSchema },
          },
        },
        async (request, reply) =>
          idempotent(sql, request, reply, async (ctx) => {
            const invitationId = request.params.id;
            const { position } = await tutors.manageInvitation(invitationId, action, ctx);
            await readYourWrites(sql, invitationModels, position);
            return { status: 200, body: { ok: true as const, invitationId } };
          }),
      );
    invitationAction(
      'resend',
      'Mail outstanding invitation {id} again (same link and expiry); 429 within a minute of the last mail, 409 when no longer outstanding',
    );
    invitationAction(
      'revoke',
      'Revoke outstanding invitation {id}: signing in with it is refused from now on; 409 when no longer outstanding',
    );

    const review = async (applicantId: string, kind: Review, ctx: Parameters<typeof tutors.review>[2]) => {
      // The module waits for the workflow (registration, shredding): an answer before it finished would show stale data.
      const { position } = await tutors.review(applicantId, kind, ctx);
      await readYourWrites(sql, reviewedModels, position);
      const status = { approve: 'approved', reject: 'rejected', deny: 'denied' }[kind];
      return { status: 200, body: { ok: true as const, status } };
    };
    const reviewRoute = (method: 'post' | 'delete', path: string, kind: Review, summary: string) =>
      app[method](
        path,
        {
          config: adminOnly,
          schema: {
            tags: ['tutors'],
            summary,
            params: applicantParams,
            response: { 200: okSchema, 404: messageSchema, 409: messageSchema },
          },
        },
        async (request, reply) => idempotent(sql, request, reply, (ctx) => review(request.params.id, kind, ctx)),
      );

    const approval =
      'Approve the application of applicant {id}: registers the tutor (Google sign-in) and the tutor profile; 409 when already reviewed';
    reviewRoute('post', '/api/admin/approve-tutor/:id', 'approve', approval);
    reviewRoute('post', '/api/admin/tutors/:id/approve', 'approve', approval);
    reviewRoute(
      'post',
      '/api/admin/tutors/:id/reject',
      'reject',
      'Reject the application of applicant {id}; the applicant is told by e-mail',
    );
    reviewRoute(
      'delete',
      '/api/admin/deny-tutor-application/:id',
      'deny',
      "Deny the application of applicant {id}: the applicant's personal data is erased (crypto-shredded)",
    );
  };
