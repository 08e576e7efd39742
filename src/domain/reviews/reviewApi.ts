import { z } from 'zod';
import { HIDE_REASON_MAX, REVIEW_COMMENT_MAX } from './review.ts';

/**
 * The review's body. The rating is any number here so that 0, 6 or 2.5 get the decider's message
 * (naming `rating`); the comment is bounded a little above its limit so that a megabyte never
 * reaches the decider, which refuses anything over the limit with its own message.
 */
export const reviewBody = z.object({
  rating: z.number(),
  comment: z
    .string()
    .max(REVIEW_COMMENT_MAX * 2)
    .nullish(),
});
export const hideReviewBody = z.object({ reason: z.string().max(HIDE_REASON_MAX * 2) });

export const reviewSchema = z.object({
  sessionId: z.string(),
  tutorId: z.string(),
  studentId: z.string(),
  rating: z.number().int(),
  /** Null when none was given, erased with the reviewer's account, or hidden (shown to admins only). */
  comment: z.string().nullable(),
  reviewedAt: z.string(),
  editedAt: z.string().nullable(),
  /** Until when the family may still change it. */
  editableUntil: z.string(),
  hidden: z.boolean(),
  hiddenReason: z.string().nullable(),
  hiddenAt: z.string().nullable(),
  studentName: z.string().nullable(),
  sessionStart: z.string().nullable(),
  subjectName: z.string().nullable(),
  tutorName: z.string().nullable(),
});
export type ReviewAnswer = z.output<typeof reviewSchema>;
