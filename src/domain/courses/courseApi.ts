import { z } from 'zod';

/** The courses API's answers, shared by the server and the UI. */

/** GET /api/student/{id}/courses entries (spec part 2 §3 "Student course"). */
export const studentCourseSchema = z.object({
  id: z.string(),
  studentId: z.string(),
  subjectId: z.string(),
  packageId: z.string(),
  status: z.enum(['enrolled', 'active', 'inactive']),
  totalSessions: z.number().int(),
  /** Credits neither booked nor used: what is left to book. */
  sessionsRemaining: z.number().int(),
  /** Credits held by booked sessions still ahead. */
  sessionsBooked: z.number().int(),
  /** Credits gone: sessions completed or forfeited (late cancellations). */
  sessionsUsed: z.number().int(),
  /** More sessions are being paid for: Repurchase and End Course wait for that payment (courseOffers.ts). */
  repurchasePending: z.boolean(),
  subject: z.object({ id: z.string(), name: z.string() }),
  package: z.object({ id: z.string(), name: z.string(), sessionCount: z.number().int() }),
  gradeTier: z.object({ id: z.string(), name: z.string() }).nullable(),
  tutor: z.object({ firstName: z.string(), lastName: z.string() }).nullable(),
  tutorId: z.string().nullable(),
  purchaseId: z.string(),
  createdAt: z.string(),
});
export type StudentCourse = z.output<typeof studentCourseSchema>;

/** A course's counts as the offers rule reads them (the same rule the decider enforces). */
export const creditsOfCourse = (c: Pick<StudentCourse, 'status' | 'sessionsRemaining' | 'sessionsBooked' | 'repurchasePending'>) => ({
  status: c.status,
  left: c.sessionsRemaining,
  booked: c.sessionsBooked,
  repurchasePending: c.repurchasePending,
});

/** GET /api/student/enrollment-status: courses awaiting a tutor block a new enrolment, as do 4 open courses. */
export const enrollmentStatusSchema = z.object({
  canEnrollInNewCourse: z.boolean(),
  pendingTutorSelections: z.array(z.object({ courseId: z.string(), subjectId: z.string(), subjectName: z.string() })),
});
export type EnrollmentStatus = z.output<typeof enrollmentStatusSchema>;
