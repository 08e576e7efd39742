import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CommandContext } from '../../../commands/kit/commandContext.ts';
import { type ReviewRequest, reviewHandlers, reviewSession } from '../../../commands/reviews/reviewSession.ts';
import { sessionHandlers } from '../../../commands/sessions/sessionHandlers.ts';
import { STUDENT_NOT_FOUND } from '../../../domain/accounts/studentDecider.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import { hideReviewBody, reviewBody, reviewSchema } from '../../../domain/reviews/reviewApi.ts';
import { REVIEW_NOT_FOUND } from '../../../domain/reviews/reviewDecider.ts';
import { listReviews, reviewOfSession, reviewsOfStudent } from '../../../projections/reviews/queries.ts';
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
const reviewModels = ['tutor_reviews'] as const;
/** The family: the student's login or the parent holding the account (a view-only login never). */
const family = { roles: ['student', 'parent'] } as const;

/**
 * Reviews (issue 24 §3): a family rates a completed session once and may change it for 7 days;
 * the tutor reads their reviews; an admin hides an abusive comment with a reason. Decisions are
 * taken on the review's stream; the lists read the `tutor_reviews` read model.
 */
export const reviewRoutes =
  ({ sql, store }: Pick<System, 'sql' | 'store'>): FastifyPluginAsyncZod =>
  async (app) => {
    const handlers = reviewHandlers(store);
    const sessions = sessionHandlers(store).sessions;
    const loadSession = (sessionId: string) => sessions.load(sessionId);

    const write = async (input: ReviewRequest, first: boolean, ctx: CommandContext) => {
      const { position } = await reviewSession({ sql, loadSession, handlers }, input, first, ctx);
      await readYourWrites(sql, reviewModels, position ?? (await store.committedPosition()));
      const review = await reviewOfSession(sql, input.sessionId);
      if (!review) throw new DomainError(REVIEW_NOT_FOUND, 'not_found');
      return review;
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
        const [student] = await sql<{ user_id: string; parent_id: string | null }[]>`
          SELECT user_id, parent_id FROM students WHERE id = ${request.params.studentId}`;
        // Someone else's student is not found, as an unknown one.
        if (!student || (student.user_id !== principal.userId && student.parent_id !== principal.userId))
          throw new DomainError(STUDENT_NOT_FOUND, 'not_found');
        return reviewsOfStudent(sql, request.params.studentId);
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
      async (request) => listReviews(sql, { tutorId: principalOf(request).userId }, { showHidden: false }),
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
      async (request) => listReviews(sql, { tutorId: request.query.tutorId ?? null }, { showHidden: true }),
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
          const { position } = await handlers.reviews.handle(
            sessionId,
            { type: 'HideReviewComment', data: { sessionId, reason: request.body.reason } },
            ctx,
          );
          await readYourWrites(sql, reviewModels, position ?? (await store.committedPosition()));
          const review = await reviewOfSession(sql, sessionId, { showHidden: true });
          if (!review) throw new DomainError(REVIEW_NOT_FOUND, 'not_found');
          return { status: 200, body: review };
        }),
    );
  };
