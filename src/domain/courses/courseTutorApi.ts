import { z } from 'zod';

/**
 * GET /api/student/{id}/course-tutors (issue 24 "no dead ends"): for each open course, whether its
 * tutor is still listed (approved, onboarded, account live, teaching the subject) and whether any
 * listed tutor teaches its subject, so a dashboard can offer "choose another tutor" or, when no one
 * teaches the subject any more, say so and point to a refund.
 */
export const courseTutorStatusSchema = z.object({
  courseId: z.string(),
  /** The course has a tutor who has left (deactivated, deleted, no longer teaching the subject). */
  tutorLeft: z.boolean(),
  /** How many listed tutors teach the course's subject now (0: nobody to choose). */
  tutorsAvailable: z.number().int(),
});
export type CourseTutorStatus = z.output<typeof courseTutorStatusSchema>;

/**
 * GET /api/subjects/tutor-stats: every active subject with the listed tutors teaching it, and those
 * tutors' review figures (the Subjects page counts and averages them; the rating shows from the
 * third review, as tutor cards do).
 */
export const subjectTutorStatsSchema = z.object({
  subjects: z.array(
    z.object({
      subjectId: z.string(),
      name: z.string(),
      category: z.string().nullable(),
      gradeLevel: z.string(),
      tutorIds: z.array(z.string()),
    }),
  ),
  tutors: z.array(z.object({ tutorId: z.string(), reviewCount: z.number().int(), ratingTotal: z.number().int() })),
});
export type SubjectTutorStats = z.output<typeof subjectTutorStatsSchema>;
