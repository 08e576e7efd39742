import type { Sql } from '../../adapters/db/db.ts';
import type { ReadRowOf } from '../kit/table.ts';
import type { students, users } from './tables.ts';

/** The console's Users tab reads these (kept in their own file, with its sort and search helpers). */
export { findAdminUser, listUsersForAdmin } from './userListQueries.ts';

/**
 * The queries of the users and students read models. They read what the projections have
 * applied so far: a look-up that must not miss a concurrent write checks the log (a reservation
 * stream) too.
 */

type UserRead = ReadRowOf<typeof users>;
type StudentRead = ReadRowOf<typeof students>;

export interface UserLookup {
  id: string;
  role: UserRead['role'];
  username: string;
  email: string;
}

/** The account whose username or e-mail is `login`, ignoring case. */
export async function findUserByLogin(sql: Sql, login: string): Promise<UserLookup | null> {
  const [row] = await sql<UserLookup[]>`
    SELECT id, role, username, email FROM users
    WHERE lower(username) = lower(${login}) OR lower(email) = lower(${login}) LIMIT 1`;
  return row ?? null;
}

/** The account with this e-mail address, ignoring case and surrounding spaces. */
export async function findUserByEmail(sql: Sql, email: string): Promise<UserLookup | null> {
  const [row] = await sql<UserLookup[]>`SELECT id, role, username, email FROM users WHERE lower(email) = lower(${email.trim()}) LIMIT 1`;
  return row ?? null;
}

export async function findUserById(sql: Sql, userId: string): Promise<UserLookup | null> {
  const [row] = await sql<UserLookup[]>`SELECT id, role, username, email FROM users WHERE id = ${userId}`;
  return row ?? null;
}

/** The account linked to this Google subject. */
export async function findUserIdByGoogleId(sql: Sql, googleId: string): Promise<string | null> {
  const [row] = await sql<{ id: string }[]>`SELECT id FROM users WHERE google_id = ${googleId} LIMIT 1`;
  return row?.id ?? null;
}

/** Whether an account or a view-only login (other than `exceptStudentId`'s) uses this username, ignoring case. */
export async function isUsernameTaken(sql: Sql, username: string, options: { exceptStudentId?: string } = {}): Promise<boolean> {
  const [clash] = await sql`
    SELECT 1 FROM users WHERE lower(username) = lower(${username})
    UNION ALL
    SELECT 1 FROM students WHERE lower(secondary_username) = lower(${username})
      AND (${options.exceptStudentId ?? null}::text IS NULL OR id <> ${options.exceptStudentId ?? null})
    LIMIT 1`;
  return clash !== undefined;
}

/** The student whose view-only login has this username (its current one), ignoring case. */
export async function findSecondaryLogin(sql: Sql, username: string): Promise<{ studentId: string; userId: string } | null> {
  const [row] = await sql<{ id: string; user_id: string }[]>`
    SELECT id, user_id FROM students WHERE lower(secondary_username) = lower(${username}) AND has_secondary_login LIMIT 1`;
  return row ? { studentId: row.id, userId: row.user_id } : null;
}

/**
 * The student an account holder or parent may act for: `studentId` when it is theirs, else their
 * first student; null when none.
 */
export async function findOwnStudent(sql: Sql, userId: string, studentId: string | null): Promise<string | null> {
  const [row] = await sql<{ id: string }[]>`
    SELECT id FROM students WHERE (user_id = ${userId} OR parent_id = ${userId})
      AND (${studentId}::text IS NULL OR id = ${studentId}) ORDER BY created_at LIMIT 1`;
  return row?.id ?? null;
}

export interface StudentAccount {
  /** '' when not set yet. */
  grade: string;
  isUniversityStudent: boolean;
  schoolYearStartMonth: number | null;
}

/** A student's grade and school year, as the student account form shows them. */
export async function studentAccount(sql: Sql, studentId: string): Promise<StudentAccount | null> {
  const [row] = await sql<Pick<StudentRead, 'grade' | 'is_university_student' | 'school_year_start_month'>[]>`
    SELECT grade, is_university_student, school_year_start_month FROM students WHERE id = ${studentId}`;
  return row
    ? { grade: row.grade, isUniversityStudent: row.is_university_student, schoolYearStartMonth: row.school_year_start_month }
    : null;
}

export interface ParentStudent {
  id: string;
  firstName: string;
  lastName: string;
  /** '' when not set yet. */
  grade: string;
  hasSecondaryLogin: boolean;
  /** The view-only login's username, for the parent's rename form. */
  secondaryUsername: string | null;
}

/** A parent's students, by name. */
export async function studentsOfParent(sql: Sql, parentId: string): Promise<ParentStudent[]> {
  const rows = await sql<Pick<StudentRead, 'id' | 'first_name' | 'last_name' | 'grade' | 'has_secondary_login' | 'secondary_username'>[]>`
    SELECT id, first_name, last_name, grade, has_secondary_login, secondary_username
    FROM students WHERE parent_id = ${parentId} ORDER BY first_name, last_name`;
  return rows.map((r) => ({
    id: r.id,
    firstName: r.first_name,
    lastName: r.last_name,
    grade: r.grade,
    hasSecondaryLogin: r.has_secondary_login,
    secondaryUsername: r.secondary_username ?? null,
  }));
}

export interface CurrentUser {
  id: string;
  username: string;
  email: string;
  role: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  emailVerified: boolean;
  authProvider: string;
  timezone: string;
  /** The person chose the zone: the browser's zone no longer replaces it at sign-in. */
  timezoneChosen: boolean;
  termsAcceptedAt: string | null;
  termsAcceptedVersion: string | null;
  googleTokenExpiry: string | null;
  createdAt: string;
  student: {
    id: string;
    /** '' when not set yet (a student who signed up with Google). */
    grade: string;
    isUniversityStudent: boolean;
    schoolYearStartMonth: number | null;
    hasSecondaryLogin: boolean;
  } | null;
  viewOnly: boolean;
}

/** The user as the UI reads it; a secondary login reads its student's account, view-only. */
export async function currentUser(
  sql: Sql,
  principal: { userId: string; role: string; studentId: string | null },
): Promise<CurrentUser | null> {
  const [u] = await sql<UserRead[]>`SELECT * FROM users WHERE id = ${principal.userId}`;
  if (!u) return null;
  // A secondary login opens its own student; an account holder sees their first student profile.
  const [s] = await sql<StudentRead[]>`SELECT * FROM students
    WHERE CASE WHEN ${principal.studentId}::text IS NULL THEN user_id = ${principal.userId} ELSE id = ${principal.studentId} END
    ORDER BY created_at LIMIT 1`;
  const viewOnly = principal.role === 'student_secondary';
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    role: viewOnly ? 'student_secondary' : u.role,
    firstName: u.first_name,
    lastName: u.last_name,
    phone: u.phone,
    emailVerified: u.email_verified,
    authProvider: u.auth_provider,
    timezone: u.timezone,
    timezoneChosen: u.timezone_chosen === true,
    termsAcceptedAt: u.terms_accepted_at?.toISOString() ?? null,
    termsAcceptedVersion: u.terms_accepted_version,
    googleTokenExpiry: u.google_token_expiry?.toISOString() ?? null,
    createdAt: u.created_at.toISOString(),
    student: s
      ? {
          id: s.id,
          grade: s.grade,
          isUniversityStudent: s.is_university_student,
          schoolYearStartMonth: s.school_year_start_month,
          hasSecondaryLogin: s.has_secondary_login,
        }
      : null,
    viewOnly,
  };
}

export interface StudentRecord {
  id: string;
  userId: string;
  parentId: string | null;
  firstName: string;
  lastName: string;
  /** '' when not set yet. */
  grade: string;
  schoolYearStartMonth: number | null;
  isUniversityStudent: boolean;
  notes: string | null;
}

/** A student profile with its account holder and parent (spec part 2 §3 "Student"); null when unknown. */
export async function findStudent(sql: Sql, studentId: string): Promise<StudentRecord | null> {
  const [r] = await sql<StudentRead[]>`SELECT * FROM students WHERE id = ${studentId}`;
  return r
    ? {
        id: r.id,
        userId: r.user_id,
        parentId: r.parent_id,
        firstName: r.first_name,
        lastName: r.last_name,
        grade: r.grade,
        schoolYearStartMonth: r.school_year_start_month,
        isUniversityStudent: r.is_university_student,
        notes: r.notes,
      }
    : null;
}

/** The student profiles `userId` holds (their own) or is the parent of, oldest first. */
export async function studentIdsHeldBy(sql: Sql, userId: string): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    SELECT id FROM students WHERE user_id = ${userId} OR parent_id = ${userId} ORDER BY created_at, id`;
  return rows.map((r) => r.id);
}

/**
 * The ids of the student's courses (courses read model) whose tutor is the tutor with the account `tutorUserId` (any status): a
 * tutor may read the student's info page for those courses only.
 */
export async function coursesTaughtBy(sql: Sql, studentId: string, tutorUserId: string): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    SELECT c.id FROM student_courses c JOIN tutors t ON t.id = c.tutor_id
    WHERE c.student_id = ${studentId} AND t.user_id = ${tutorUserId} ORDER BY c.created_at, c.id`;
  return rows.map((r) => r.id);
}
