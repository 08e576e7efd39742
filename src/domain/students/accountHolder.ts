/**
 * Who may act for a student, and who may read their records — the one rule every route applies
 * (spec part 1 §6 and part 2 §6). A student is held by their own account (an adult managing
 * themselves) or by their parent's. Only a family login holds: a staff or tutor account never acts
 * for a student, even one whose profile it once created, because the spec gives booking, buying and
 * cancelling to students and parents alone. A view-only login (`student_secondary`) reads its own
 * student and never acts ("sub-accounts are view-only"); an admin reads any student and acts for none.
 * Pure: the caller loads the student's holders.
 */

/** The accounts a student profile names: their own login and, for a child, the parent's. */
export interface StudentHolders {
  userId: string;
  parentId: string | null;
}

/** The signed-in caller as the rule reads it; `studentId` is a view-only login's own student. */
export interface StudentActor {
  userId: string;
  role: string;
  studentId?: string | null;
}

/** `act`: book, buy, cancel, change courses; `read`: see the student's courses, purchases, sessions. */
export type StudentAccess = 'act' | 'read';

/** The roles that can hold a student's account. */
export const FAMILY_ROLES: readonly string[] = ['student', 'parent'];

/** The ids of the student's account holders (their own login first). */
export const holdersOf = (student: StudentHolders): string[] => (student.parentId ? [student.userId, student.parentId] : [student.userId]);

/** Whether the caller is the student's account holder: a family login named on the profile. */
export const isAccountHolder = (actor: Pick<StudentActor, 'userId' | 'role'>, holders: readonly string[]): boolean =>
  FAMILY_ROLES.includes(actor.role) && holders.includes(actor.userId);

/** Whether the caller may act for (or read) student `studentId` whose profile names `student`. */
export function mayAccessStudent(actor: StudentActor, studentId: string, student: StudentHolders, access: StudentAccess): boolean {
  if (isAccountHolder(actor, holdersOf(student))) return true;
  if (access === 'act') return false;
  return actor.role === 'admin' || (actor.role === 'student_secondary' && actor.studentId === studentId);
}
