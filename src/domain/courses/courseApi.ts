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
  sessionsRemaining: z.number().int(),
  subject: z.object({ id: z.string(), name: z.string() }),
  package: z.object({ id: z.string(), name: z.string(), sessionCount: z.number().int() }),
  gradeTier: z.object({ id: z.string(), name: z.string() }).nullable(),
  tutor: z.object({ firstName: z.string(), lastName: z.string() }).nullable(),
  tutorId: z.string().nullable(),
  purchaseId: z.string(),
  createdAt: z.string(),
});
export type StudentCourse = z.output<typeof studentCourseSchema>;

/** GET /api/student/enrollment-status: courses awaiting a tutor block a new enrolment, as do 4 open courses. */
export const enrollmentStatusSchema = z.object({
  canEnrollInNewCourse: z.boolean(),
  pendingTutorSelections: z.array(z.object({ courseId: z.string(), subjectId: z.string(), subjectName: z.string() })),
});
export type EnrollmentStatus = z.output<typeof enrollmentStatusSchema>;
