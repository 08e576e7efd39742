import { REVIEW_COMMENT_MAX } from '@shared/reviews/review.ts';
import { reviewSchema } from '@shared/reviews/reviewApi.ts';
import { z } from 'zod';
import { api } from '../../app/api.ts';

/** Reviews (issue 24 §3): a family rates a completed session, the tutor reads theirs, an admin hides a comment. */

const enc = encodeURIComponent;
const idempotencyKey = () => ({ headers: { 'Idempotency-Key': crypto.randomUUID() } });

export type Review = z.output<typeof reviewSchema>;

export const reviewKeys = {
  all: ['reviews'] as const,
  student: (studentId: string) => ['reviews', 'student', studentId] as const,
  tutor: ['reviews', 'tutor'] as const,
  admin: ['reviews', 'admin'] as const,
};

/** The rating form: a whole number of stars and an optional comment. */
export const reviewFormSchema = z.object({
  rating: z.enum(['1', '2', '3', '4', '5'], { message: 'Choose from 1 to 5 stars' }),
  comment: z.string().trim().max(REVIEW_COMMENT_MAX, `At most ${REVIEW_COMMENT_MAX} characters`),
});
export type ReviewFormValues = z.output<typeof reviewFormSchema>;

export const reviewsApi = {
  ofStudent: (studentId: string) => api.get(`/api/students/${enc(studentId)}/session-reviews`, z.array(reviewSchema)),
  rate: (sessionId: string, body: { rating: number; comment: string }, editing: boolean) =>
    api.send(editing ? 'PUT' : 'POST', `/api/sessions/${enc(sessionId)}/review`, body, reviewSchema, idempotencyKey()),
  tutorReviews: () => api.get('/api/tutor/reviews', z.array(reviewSchema)),
  adminReviews: () => api.get('/api/admin/reviews', z.array(reviewSchema)),
  hide: (sessionId: string, reason: string) =>
    api.send('POST', `/api/admin/reviews/${enc(sessionId)}/hide`, { reason }, reviewSchema, idempotencyKey()),
};

/** Whether the family may still change the review (the server decides; this only hides the button). */
export const editable = (review: Review, now = Date.now()) => Date.parse(review.editableUntil) >= now;
