import type { Sql } from '../../adapters/db/db.ts';
import {
  type CourseProgress,
  courseSessionCounts,
  recentSessions,
  type Student,
  type StudentInfo,
  type StudentSessions,
} from '../../domain/students/studentApi.ts';
import { coursesTaughtBy, findStudent, type StudentRecord, studentIdsHeldBy } from '../../projections/accounts/queries.ts';
import { listStudentCourses } from '../../projections/courses/queries.ts';
import { purchasesOfStudent } from '../../projections/purchases/queries.ts';

const studentView = (s: StudentRecord): Student => ({
  id: s.id,
  userId: s.userId,
  firstName: s.firstName,
  lastName: s.lastName,
  grade: s.grade,
  schoolYearStartMonth: s.schoolYearStartMonth,
  isUniversityStudent: s.isUniversityStudent,
  notes: s.notes,
});

/**
 * The student area's reads (spec part 2 §2, §3, §7): the dashboard and the student info page.
 * Sessions come through the `studentSessions` port (the sessions read model's query, given by
 * src/http/app.ts; a test gives its own); courses and purchases from their read models. Who may
 * read which student is the routes' check over `student`, `firstStudentOf` and `coursesTaughtBy`.
 */
export function studentArea(deps: { sql: Sql; studentSessions: StudentSessions }) {
  const { sql, studentSessions } = deps;
  return {
    /** The student profile with its holders; null when unknown. */
    student: (studentId: string) => findStudent(sql, studentId),

    /** The first student profile `userId` holds or is the parent of; null when none. */
    firstStudentOf: async (userId: string): Promise<string | null> => (await studentIdsHeldBy(sql, userId))[0] ?? null,

    /** The student's courses the tutor with the account `tutorUserId` teaches (any status). */
    coursesTaughtBy: (studentId: string, tutorUserId: string) => coursesTaughtBy(sql, studentId, tutorUserId),

    /** The dashboard's student, sessions, purchases and courses. */
    async dashboard(student: StudentRecord) {
      const [sessions, purchases, courses] = await Promise.all([
        studentSessions(student.id),
        purchasesOfStudent(sql, student.id),
        listStudentCourses(sql, student.id),
      ]);
      return { student: studentView(student), sessions, purchases, courses };
    },

    /**
     * The info page: academic progress per course, packages and purchases, the five most recent
     * sessions; `taught` (a tutor's courses) keeps only those courses and their sessions, no purchases.
     */
    async info(student: StudentRecord, taught: ReadonlySet<string> | null): Promise<StudentInfo> {
      const [allSessions, allCourses, purchases] = await Promise.all([
        studentSessions(student.id),
        listStudentCourses(sql, student.id),
        taught ? Promise.resolve([]) : purchasesOfStudent(sql, student.id),
      ]);
      // A tutor sees what they teach: those courses and their sessions, not the rest nor what was paid.
      const courses = taught ? allCourses.filter((c) => taught.has(c.id)) : allCourses;
      const sessions = taught ? allSessions.filter((s) => s.courseId !== null && taught.has(s.courseId)) : allSessions;
      const progress: CourseProgress[] = courses.map((c) => {
        const counts = courseSessionCounts(c, sessions);
        return {
          courseId: c.id,
          subject: c.subject,
          status: c.status,
          tutor: c.tutor,
          totalSessions: c.totalSessions,
          usedSessions: c.sessionsUsed,
          bookedSessions: c.sessionsBooked,
          remainingSessions: counts.remaining,
          completedSessions: counts.completed,
          upcomingSessions: counts.upcoming,
        };
      });
      const sum = (pick: (p: CourseProgress) => number) => progress.reduce((total, p) => total + pick(p), 0);
      return {
        student: studentView(student),
        progress: {
          courses: progress,
          totalSessions: sum((p) => p.totalSessions),
          usedSessions: sum((p) => p.usedSessions),
          bookedSessions: sum((p) => p.bookedSessions),
          remainingSessions: sum((p) => p.remainingSessions),
          completedSessions: sum((p) => p.completedSessions),
          upcomingSessions: sum((p) => p.upcomingSessions),
        },
        courses,
        purchases,
        recentSessions: recentSessions(sessions),
      };
    },
  };
}

export type StudentArea = ReturnType<typeof studentArea>;
