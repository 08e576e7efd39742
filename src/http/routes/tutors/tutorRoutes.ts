import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inviteTutor } from '../../../commands/tutors/inviteTutor.ts';
import { type Review, reviewTutorApplication } from '../../../commands/tutors/reviewApplication.ts';
import { tutorHandlers } from '../../../commands/tutors/tutorHandlers.ts';
import { TUTOR_APPLICATION_NOT_FOUND } from '../../../domain/accounts/tutorApplicationDecider.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import { adminListedUserSchema as adminListedUser, adminOverviewSchema } from '../../../domain/tutors/adminApi.ts';
import { INVALID_INVITATION_EMAIL } from '../../../domain/tutors/invitationDecider.ts';
import { findUserByEmail } from '../../../projections/accounts/queries.ts';
import { adminOverview, findTutorApplication, listTutorApplications } from '../../../projections/accounts/tutorApplicationsProjector.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import type { System } from '../../../system.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { ReadModelLagError, readYourWrites } from '../../kit/readYourWrites.ts';

const adminOnly = { roles: ['admin'] } as const;
/** The workflow an approval or a denial sets off (registration, shredding): the answer waits for it. */
const TUTOR_REVIEW = 'tutor_review';
const reviewedModels = ['tutor_applications', 'users', 'tutors'];
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
          summary: 'Invite an address to apply as a tutor (valid 14 days; inviting again renews it); the sign-in link is e-mailed',
          body: inviteBody,
          response: { 201: z.object({ ok: z.literal(true), invitationId: z.string(), expiresAt: z.string().nullable() }) },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const { invitationId, expiresAt } = await inviteTutor(handlers, request.body.email, signInUrl, ctx);
          return { status: 201, body: { ok: true as const, invitationId, expiresAt } };
        }),
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
