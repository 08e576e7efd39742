import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inviteTutor } from '../../../commands/tutors/inviteTutor.ts';
import { resendTutorInvitation, revokeTutorInvitation } from '../../../commands/tutors/manageInvitation.ts';
import { type Review, reviewTutorApplication } from '../../../commands/tutors/reviewApplication.ts';
import { tutorHandlers } from '../../../commands/tutors/tutorHandlers.ts';
import { TUTOR_APPLICATION_NOT_FOUND } from '../../../domain/accounts/tutorApplicationDecider.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import {
  adminListedUserSchema as adminListedUser,
  adminOverviewSchema,
  tutorInvitationActionAnswerSchema,
  tutorInvitationListSchema,
} from '../../../domain/tutors/adminApi.ts';
import { INVALID_INVITATION_EMAIL, INVITATION_NOT_FOUND } from '../../../domain/tutors/invitationDecider.ts';
import { findUserByEmail } from '../../../projections/accounts/queries.ts';
import { adminOverview, findTutorApplication, listTutorApplications } from '../../../projections/accounts/tutorApplicationsProjector.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import { listTutorInvitations } from '../../../projections/tutors/queries.ts';
import type { System } from '../../../system.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { ReadModelLagError, readYourWrites } from '../../kit/readYourWrites.ts';

const adminOnly = { roles: ['admin'] } as const;
/** The workflow an approval or a denial sets off (registration, shredding): the answer waits for it. */
const TUTOR_REVIEW = 'tutor_review';
const reviewedModels = ['tutor_applications', 'users', 'tutors'] as const;
export const APPLICANT_EMAIL_TAKEN = "An account already uses this applicant's e-mail address: it cannot become a tutor account";

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

/** Applicant ids are UUIDs: anything else is unknown without asking the store. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function knownApplicant(id: string): string {
  if (!UUID.test(id)) throw new DomainError(TUTOR_APPLICATION_NOT_FOUND, 'not_found');
  return id;
}

/** The admin's side of tutor recruiting: invitations, applications under review, the overview counters. */
export const tutorRoutes =
  ({ sql, store, config }: Pick<System, 'sql' | 'store' | 'config'>): FastifyPluginAsyncZod =>
  async (app) => {
    const handlers = tutorHandlers(store);
    const signInUrl = `${config.PUBLIC_URL.replace(/\/+$/, '')}/tutor-login`;

    const list = () => listTutorApplications(sql);
    /**
     * An address that has meanwhile become an account's cannot become a tutor's too: refused (409)
     * before the approval is recorded, so the workflow does not fail on the e-mail claim. A hint
     * from the read models: the claim on the reservation stream still decides.
     */
    const refuseTakenAddress = async (applicantId: string) => {
      const application = await findTutorApplication(sql, applicantId);
      if (application?.status === 'pending' && (await findUserByEmail(sql, application.email)))
        throw new DomainError(APPLICANT_EMAIL_TAKEN, 'conflict');
    };
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
        list,
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
      () => adminOverview(sql),
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
          const { invitationId, expiresAt, position } = await inviteTutor(handlers, request.body.email, signInUrl, ctx);
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
      () => listTutorInvitations(sql, app.clock.now()),
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
            if (!UUID.test(invitationId)) throw new DomainError(INVITATION_NOT_FOUND, 'not_found');
            const act = action === 'resend' ? resendTutorInvitation : revokeTutorInvitation;
            const { position } = await act(handlers, sql, invitationId, ctx);
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

    const review = async (applicantId: string, kind: Review, ctx: Parameters<typeof reviewTutorApplication>[3]) => {
      if (kind === 'approve') await refuseTakenAddress(knownApplicant(applicantId));
      const { position } = await reviewTutorApplication(handlers, knownApplicant(applicantId), kind, ctx);
      // The workflow registers the tutor or shreds the keys: an answer before it finished would show stale data.
      if (kind !== 'reject' && !(await waitForProjections(sql, [TUTOR_REVIEW], position, 10_000))) throw new ReadModelLagError();
      await readYourWrites(sql, reviewedModels, kind === 'reject' ? position : await store.committedPosition());
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
