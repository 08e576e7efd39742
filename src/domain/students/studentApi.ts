import { z } from 'zod';
import { studentCourseSchema } from '../courses/courseApi.ts';
import { purchaseViewSchema } from '../purchases/purchaseApi.ts';

/**
 * The student area's reads (spec part 2 §3, §7): GET /api/student/dashboard and
 * GET /api/student/info/{studentId}, shared by the server and the UI (`@shared/students/…`).
 * These pages read what other features record (accounts, courses, purchases, sessions); this
 * feature owns no events.
 */

/** Spec part 2 §3 "Student". */
export const studentSchema = z.object({
  id: z.string(),
  userId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** '' when not set yet (a student who signed up with Google). */
  grade: z.string(),
  schoolYearStartMonth: z.number().int().nullable(),
  isUniversityStudent: z.boolean(),
  notes: z.string().nullable(),
});
export type Student = z.output<typeof studentSchema>;

/**
 * Spec part 2 §3 "Student session (dashboard)": id, date, duration minutes, status (pending,
 * completed, other), subject, tutor, meetingLink, notes; with the course it is booked on.
 */
export const studentSessionSchema = z.object({
  id: z.string(),
  /** ISO timestamp of the start. */
  date: z.string(),
  /** Minutes. */
  duration: z.number().int(),
  /** pending, approved, scheduled, completed, cancelled…: kept open, the UI only tells completed from the rest. */
  status: z.string(),
  subject: z.object({ id: z.string(), name: z.string() }).nullable(),
  tutor: z.object({ firstName: z.string(), lastName: z.string() }).nullable(),
  meetingLink: z.string().nullable(),
  notes: z.string().nullable(),
  /** The student course the session is booked on (its credits), when known. */
  courseId: z.string().nullable(),
});
export type StudentSession = z.output<typeof studentSessionSchema>;

/**
 * The student area's port to the sessions feature: a student's sessions (any order; the routes
 * sort them). src/http/app.ts passes the sessions read model's query (`listStudentSessions`) to
 * `studentRoutes`; tests pass their own.
 */
export type StudentSessions = (studentId: string) => Promise<StudentSession[]>;

/** Cancelled sessions are neither upcoming nor done. */
const CANCELLED = new Set(['cancelled', 'canceled']);

/** Spec part 2 §4: on the student side, upcoming means every session not completed (cancelled ones are gone). */
export const isUpcoming = (s: Pick<StudentSession, 'status'>) => s.status !== 'completed' && !CANCELLED.has(s.status);
export const isCompleted = (s: Pick<StudentSession, 'status'>) => s.status === 'completed';

/** Completed newest first; upcoming oldest first (spec part 2 §4). */
export function sortSessions(sessions: readonly StudentSession[]): { upcoming: StudentSession[]; completed: StudentSession[] } {
  const time = (s: StudentSession) => Date.parse(s.date) || 0;
  return {
    upcoming: sessions.filter(isUpcoming).sort((a, b) => time(a) - time(b)),
    completed: sessions.filter(isCompleted).sort((a, b) => time(b) - time(a)),
  };
}

/** Spec part 2 §9: the student info page shows the five most recent sessions. */
export const RECENT_SESSIONS = 5;

/** The sessions that happened or are due last (cancelled ones left out): newest start first, at most `RECENT_SESSIONS`. */
export function recentSessions(sessions: readonly StudentSession[]): StudentSession[] {
  const time = (s: StudentSession) => Date.parse(s.date) || 0;
  return sessions
    .filter((s) => !CANCELLED.has(s.status))
    .sort((a, b) => time(b) - time(a))
    .slice(0, RECENT_SESSIONS);
}

/** Per course: sessions completed and upcoming (from the sessions), remaining credits (from the course). */
export function courseSessionCounts(
  course: { id: string; sessionsRemaining: number },
  sessions: readonly StudentSession[],
): { completed: number; upcoming: number; remaining: number } {
  const own = sessions.filter((s) => s.courseId === course.id);
  return {
    completed: own.filter(isCompleted).length,
    upcoming: own.filter(isUpcoming).length,
    remaining: Math.max(0, course.sessionsRemaining),
  };
}

/**
 * GET /api/student/dashboard (spec part 2 §3 "Student dashboard payload": student, sessions,
 * purchases, userRole, canPurchase, isSubAccount), with the student's courses.
 */
export const studentDashboardSchema = z.object({
  student: studentSchema,
  sessions: z.array(studentSessionSchema),
  purchases: z.array(purchaseViewSchema),
  courses: z.array(studentCourseSchema),
  userRole: z.string(),
  /** False for a view-only login (and any reader who is not the student's account holder). */
  canPurchase: z.boolean(),
  isSubAccount: z.boolean(),
});
export type StudentDashboard = z.output<typeof studentDashboardSchema>;

/** A course's academic progress on the student info page. */
export const courseProgressSchema = z.object({
  courseId: z.string(),
  subject: z.object({ id: z.string(), name: z.string() }),
  status: studentCourseSchema.shape.status,
  tutor: studentCourseSchema.shape.tutor,
  totalSessions: z.number().int(),
  /** Credits used: sessions completed or forfeited (a booked session is not used). */
  usedSessions: z.number().int(),
  /** Credits held by booked sessions still ahead. */
  bookedSessions: z.number().int(),
  /** Credits left to book. */
  remainingSessions: z.number().int(),
  completedSessions: z.number().int(),
  upcomingSessions: z.number().int(),
});
export type CourseProgress = z.output<typeof courseProgressSchema>;

/** GET /api/student/info/{studentId}: student info, academic progress, packages and purchases, the five most recent sessions. */
export const studentInfoSchema = z.object({
  student: studentSchema,
  progress: z.object({
    courses: z.array(courseProgressSchema),
    totalSessions: z.number().int(),
    usedSessions: z.number().int(),
    bookedSessions: z.number().int(),
    remainingSessions: z.number().int(),
    completedSessions: z.number().int(),
    upcomingSessions: z.number().int(),
  }),
  courses: z.array(studentCourseSchema),
  purchases: z.array(purchaseViewSchema),
  recentSessions: z.array(studentSessionSchema),
});
export type StudentInfo = z.output<typeof studentInfoSchema>;

/** Spec part 2 §8. */
export const STUDENT_INFO_FAILED = 'Failed to fetch student information';
export const DASHBOARD_FAILED = 'Error loading dashboard';
export const DASHBOARD_EMPTY = 'No data available';
