import { STUDENT_NOT_FOUND } from '../../domain/accounts/studentDecider.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import { mayAccessStudent, type StudentAccess, type StudentHolders } from '../../domain/students/accountHolder.ts';
import { FORBIDDEN, type Principal } from './auth.ts';

/**
 * Where the server applies the account-holder rule (src/domain/students/accountHolder.ts): an
 * unknown (or erased) student is a 404, someone else's a 403. Each route loads the holders from
 * where it already reads (the student's stream at checkout, the read model elsewhere).
 */
export function requireStudentAccess<S extends StudentHolders>(
  principal: Principal,
  studentId: string,
  student: S | null,
  access: StudentAccess,
): S {
  if (!student) throw new DomainError(STUDENT_NOT_FOUND, 'not_found');
  if (!mayAccessStudent(principal, studentId, student, access)) throw new DomainError(FORBIDDEN, 'forbidden');
  return student;
}

/** The rule over a loader: `(principal, studentId, access)` resolves to the student's holders or throws 404/403. */
export const studentAccess =
  <S extends StudentHolders>(load: (studentId: string) => Promise<S | null>) =>
  async (principal: Principal, studentId: string, access: StudentAccess): Promise<S> =>
    requireStudentAccess(principal, studentId, await load(studentId), access);
