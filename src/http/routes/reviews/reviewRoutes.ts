import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CommandContext } from '../../../commands/kit/commandContext.ts';
import type { ReviewRequest } from '../../../commands/reviews/reviewSession.ts';
import { STUDENT_NOT_FOUND } from '../../../domain/accounts/studentDecider.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import { hideReviewBody, reviewBody, reviewSchema } from '../../../domain/reviews/reviewApi.ts';
import type { System } from '../../../system.ts';
import { principalOf } from '../../kit/auth.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { readYourWrites } from '../../kit/readYourWrites.ts';

const id = z.string().min(1).max(100);
const messageSchema = z.object({ message: z.string() });
const badRequestSchema = z.object({
  message: z.string(),
  field: z.string().optional(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
/** The family: the student's login or the parent holding the account (a view-only login never). */
const family = { roles: ['student', 'parent'] } as const;

/**
 * Reviews (issue 24 §3): the reviews module's members (src/commands/reviews/reviewsModule.ts);
 * the family may rate and read their student's sessions, the tutor reads theirs, an admin hides.
 */
export const reviewRoutes =
  ({ sql, reviews }: Pick<System, 'sql' | 'reviews'>): FastifyPluginAsyncZod =>
  async (app) => {
    const write = async (input: ReviewRequest, first: boolean, ctx: CommandContext) => {
      const { position } = await reviews.review(input, first, ctx);
      await readYourWrites(sql, reviews.projections, position);
      return reviews.sessionReview(input.sessionId);
    };

    const reviewResponses = { 400: badRequestSchema, 403: messageSchema, 404: messageSchema, 409: messageSchema };

    app.post(
      '/api/sessions/:id/review',
      {
        config: family,
        schema: {
          tags: ['reviews'],
          summary: 'Rate a completed session 1–5 with an optional comment (at most 2000 characters), once; the student’s family only',
          params: z.object({ id }),
          body: reviewBody,
          response: { 201: reviewSchema, ...reviewResponses },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => ({
          status: 201,
          body: await write({ sessionId: request.params.id, ...request.body }, true, ctx),
        })),
    );

    app.put(
      '/api/sessions/:id/review',
      {
        config: family,
        schema: {
          tags: ['reviews'],
          summary: 'Change the session’s review, within 7 days of the first rating; the student’s family only',
          params: z.object({ id }),
          body: reviewBody,
          response: { 200: reviewSchema, ...reviewResponses },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => ({
          status: 200,
          body: await write({ sessionId: request.params.id, ...request.body }, false, ctx),
        })),
    );

    app.get(
      '/api/students/:studentId/session-reviews',
      {
        config: family,
        schema: {
          tags: ['reviews'],
          summary: 'The reviews the family gave of the student’s sessions, newest first',
          params: z.object({ studentId: id }),
          response: { 200: z.array(reviewSchema), 404: messageSchema },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const student = await reviews.studentHolders(request.params.studentId);
        // Someone else's student is not found, as an unknown one.
        if (!student || (student.userId !== principal.userId && student.parentId !== principal.userId))
          throw new DomainError(STUDENT_NOT_FOUND, 'not_found');
        return reviews.ofStudent(request.params.studentId);
      },
    );

    app.get(
      '/api/tutor/reviews',
      {
        config: { roles: ['tutor'] },
        schema: {
          tags: ['reviews'],
          summary: 'The signed-in tutor’s reviews, newest first (a comment an admin hid is withheld)',
          response: { 200: z.array(reviewSchema) },
        },
      },
      async (request) => reviews.list({ tutorId: principalOf(request).userId }, { showHidden: false }),
    );

    app.get(
      '/api/admin/reviews',
      {
        config: { roles: ['admin'] },
        schema: {
          tags: ['reviews'],
          summary: 'The latest 200 reviews (or one tutor’s), hidden comments and the reasons included',
          querystring: z.object({ tutorId: id.optional() }),
          response: { 200: z.array(reviewSchema) },
        },
      },
      async (request) => reviews.list({ tutorId: request.query.tutorId ?? null }, { showHidden: true }),
    );

    app.post(
      '/api/admin/reviews/:sessionId/hide',
      {
        config: { roles: ['admin'] },
        schema: {
          tags: ['reviews'],
          summary: 'Hide a review’s comment from the tutor and everyone else, with a reason (recorded with who and when)',
          params: z.object({ sessionId: id }),
          body: hideReviewBody,
          response: { 200: reviewSchema, ...reviewResponses },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const { sessionId } = request.params;
          const { position } = await reviews.hide(sessionId, request.body.reason, ctx);
          await readYourWrites(sql, reviews.projections, position);
          return { status: 200, body: await reviews.sessionReview(sessionId, { showHidden: true }) };
        }),
    );
  };
